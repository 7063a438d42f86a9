package dev.lockstep.testkit.history;

import dev.lockstep.CompositeLocks;
import dev.lockstep.DistLock;
import dev.lockstep.LockException;
import dev.lockstep.Locks;
import java.time.Duration;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;

/**
 * One actor's locks over several names, each call recorded with the names it concerns:
 * one lock on a {@link CompositeLocks} client, and on any other the nested code people write by hand.
 */
public final class SeveralNames {

    private final String actor;
    private final Locks locks;
    private final BiConsumer<String, DistLock> listen;
    private final History history;
    private final Duration defaultLease;
    /** The names {@link #tryLockAll} took one by one and holds, the last taken first. */
    private final Deque<String> heldNames = new ConcurrentLinkedDeque<>();
    /** The lock over several names {@link #tryLockAll} took as one, while held. */
    private final AtomicReference<Together> heldTogether = new AtomicReference<>();

    private record Together(DistLock lock, List<String> names) {
    }

    /**
     * The names actor {@code actor} takes through {@code locks}, recorded in {@code history}; a lock
     * call that names no lease takes {@code defaultLease}; {@code listen} hears of each lock it uses,
     * by the name it is listed under, to record its lost leases.
     */
    SeveralNames(String actor, Locks locks, History history, Duration defaultLease, BiConsumer<String, DistLock> listen) {
        this.actor = actor;
        this.locks = locks;
        this.listen = listen;
        this.history = history;
        this.defaultLease = defaultLease;
    }

    /** Whether this client takes several names as one lock ({@link CompositeLocks}). */
    public boolean composite() {
        return locks instanceof CompositeLocks;
    }

    /** {@link #tryLockAll(List, Duration, Duration, Runnable)} with nothing between the names. */
    public boolean tryLockAll(List<String> names, Duration wait, Duration lease) throws InterruptedException {
        return tryLockAll(names, wait, lease, () -> {
        });
    }

    /**
     * Tries to take every one of {@code names}, each call recorded with the names it concerns. A
     * {@link #composite()} client takes them as one lock within {@code wait}. Any other runs the nested
     * code people write by hand: each name in the order given, each within {@code wait}, with
     * {@code afterFirst} run once the first is held; when a name is refused it returns false still
     * holding the names before it, as such code does unless it undoes its own steps.
     * {@link #unlockAll} lets go of whatever this left held.
     */
    public boolean tryLockAll(List<String> names, Duration wait, Duration lease, Runnable afterFirst)
            throws InterruptedException {
        if (locks instanceof CompositeLocks composite) {
            DistLock all = composite.getAll(names.toArray(String[]::new));
            listen.accept(String.join("+", names), all);
            if (!take(all, names, wait, lease, 1)) {
                return false;
            }
            heldTogether.set(new Together(all, List.copyOf(names)));
            return true;
        }
        for (int i = 0; i < names.size(); i++) {
            DistLock lock = locks.get(names.get(i));
            listen.accept(names.get(i), lock);
            if (!take(lock, List.of(names.get(i)), wait, lease, heldNames.size() + 1)) {
                return false;
            }
            heldNames.push(names.get(i));
            if (i == 0) {
                afterFirst.run();
            }
        }
        return true;
    }

    /** One lock call for {@code names} on {@code lock}, recorded; {@code holds} is how many locks it leaves held. */
    private boolean take(DistLock lock, List<String> names, Duration wait, Duration lease, int holds)
            throws InterruptedException {
        String what = String.join(" and ", names);
        long start = history.now();
        boolean taken;
        try {
            taken = lock.tryLock(wait, lease);
        } catch (LockException e) {
            history.denied(actor, names, start, "lock on " + what + " failed: " + e.getMessage() + holding());
            return false;
        }
        if (taken) {
            history.acquired(actor, names, start, lease != null ? lease : defaultLease, holds,
                    "locked " + what + (names.size() > 1 ? " as one lock" : "") + History.leaseNote(lease));
        } else {
            history.denied(actor, names, start, "gave up on " + what + " after "
                    + (history.now() - start) / 1_000_000 + " ms" + holding());
        }
        return taken;
    }

    private String holding() {
        return heldNames.isEmpty() ? "" : ", holding " + String.join(", ", heldNames);
    }

    /** Unlocks whatever {@link #tryLockAll} took and still holds, the last name taken first; recorded. */
    public void unlockAll() {
        Together together = heldTogether.getAndSet(null);
        if (together != null) {
            releaseNames(together.lock(), together.names(), 0);
        }
        for (String lockName = heldNames.poll(); lockName != null; lockName = heldNames.poll()) {
            releaseNames(locks.get(lockName), List.of(lockName), heldNames.size());
        }
    }

    private void releaseNames(DistLock lock, List<String> names, int holdsLeft) {
        String what = String.join(" and ", names);
        // Recorded at the call's start, as in release: another client may take the names before it returns.
        long start = history.now();
        try {
            lock.unlock();
            history.unlocked(start, actor, names, holdsLeft, "unlock " + what);
        } catch (IllegalMonitorStateException e) {
            history.unlockRefused(start, actor, names, "unlock of " + what + " refused: " + e.getMessage());
        } catch (LockException e) {
            history.unlockRefused(start, actor, names, "unlock of " + what + " failed: " + e.getMessage());
        }
    }
}
