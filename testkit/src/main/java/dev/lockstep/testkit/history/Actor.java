package dev.lockstep.testkit.history;

import dev.lockstep.CompositeLocks;
import dev.lockstep.DistLock;
import dev.lockstep.FencedLock;
import dev.lockstep.LockException;
import dev.lockstep.Locks;
import dev.lockstep.ReadWriteDistLock;
import dev.lockstep.testkit.history.History.Kind;
import dev.lockstep.testkit.resource.StockTable;
import java.time.Duration;
import java.util.Deque;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A client in a scenario's story ("A", "B", ...): one {@link Locks} of the stage under test,
 * whose every lock call, critical section and unlock lands in the {@link History}.
 */
public final class Actor {

    private final String name;
    private final Locks locks;
    private final Duration defaultLease;
    private final History history;
    private final AtomicInteger depth = new AtomicInteger();
    private final Set<String> listening = ConcurrentHashMap.newKeySet();
    private final Semaphore losses = new Semaphore(0);
    /** The names {@link #tryLockAll} took one by one and holds, the last taken first. */
    private final Deque<String> heldNames = new ConcurrentLinkedDeque<>();
    /** The lock over several names {@link #tryLockAll} took as one, while held. */
    private final AtomicReference<Together> heldTogether = new AtomicReference<>();

    private record Together(DistLock lock, List<String> names) {
    }

    /** A client called {@code name} on {@code locks}, recording into {@code history}; its lock calls default to {@code defaultLease}. */
    public Actor(String name, Locks locks, Duration defaultLease, History history) {
        this.name = name;
        this.locks = locks;
        this.defaultLease = defaultLease;
        this.history = history;
    }

    /**
     * Another actor on the same client, for another thread: {@code name} is shown as
     * {@code client/thread}, and the timeline draws the client's threads in one lane.
     */
    public Actor sibling(String thread) {
        return new Actor(laneOf(name) + "/" + thread, locks, defaultLease, history);
    }

    /** The lane an actor is drawn in: its client, the part of its name before any {@code /}. */
    public static String laneOf(String actor) {
        int slash = actor.indexOf('/');
        return slash < 0 ? actor : actor.substring(0, slash);
    }

    /** The actor's name in the timeline. */
    public String name() {
        return name;
    }

    /** The stage client behind this actor. */
    public Locks locks() {
        return locks;
    }

    /** Tries to take lock {@code lockName} within {@code wait} for {@code lease} (null: the stage's default). */
    public boolean tryLock(String lockName, Duration wait, Duration lease) throws InterruptedException {
        DistLock lock = locks.get(lockName);
        listen(lockName, lock);
        long start = history.now();
        boolean taken;
        try {
            taken = lock.tryLock(wait, lease);
        } catch (LockException e) {
            history.denied(name, start, "lock failed: " + e.getMessage());
            return false;
        }
        Duration effective = lease != null ? lease : defaultLease;
        if (taken) {
            int holds = depth.incrementAndGet();
            String what = holds > 1 ? "re-locked (hold " + holds + ")" : "locked";
            Long token = token(lockName);
            history.acquired(name, start, effective, holds, what + leaseNote(lease)
                    + (token == null ? "" : ", token " + token));
        } else {
            history.denied(name, start, "gave up after " + (history.now() - start) / 1_000_000 + " ms"
                    + (depth.get() > 0 ? " though it holds the lock" : ""));
        }
        return taken;
    }

    private void listen(String key, DistLock lock) {
        if (listening.add(key)) {
            lock.onLeaseLost(loss -> {
                history.record(name, Kind.LOST, "told: lease lost (" + loss.reason() + ")");
                losses.release();
            });
        }
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
            listen(String.join("+", names), all);
            if (!take(all, names, wait, lease, 1)) {
                return false;
            }
            heldTogether.set(new Together(all, List.copyOf(names)));
            return true;
        }
        for (int i = 0; i < names.size(); i++) {
            DistLock lock = locks.get(names.get(i));
            listen(names.get(i), lock);
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
            history.denied(name, names, start, "lock on " + what + " failed: " + e.getMessage() + holding());
            return false;
        }
        if (taken) {
            history.acquired(name, names, start, lease != null ? lease : defaultLease, holds,
                    "locked " + what + (names.size() > 1 ? " as one lock" : "") + leaseNote(lease));
        } else {
            history.denied(name, names, start, "gave up on " + what + " after "
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
            history.unlocked(start, name, names, holdsLeft, "unlock " + what);
        } catch (IllegalMonitorStateException e) {
            history.unlockRefused(start, name, names, "unlock of " + what + " refused: " + e.getMessage());
        } catch (LockException e) {
            history.unlockRefused(start, name, names, "unlock of " + what + " failed: " + e.getMessage());
        }
    }

    /**
     * Tries to take the read side of {@code lockName} within {@code wait} (null lease: the stage's
     * default); a stage without a read side has only its lock, so its readers take that. Recorded.
     */
    public boolean tryReadLock(String lockName, Duration wait) throws InterruptedException {
        DistLock lock = readSide(lockName);
        long start = history.now();
        boolean taken;
        try {
            taken = lock.tryLock(wait, null);
        } catch (LockException e) {
            history.denied(name, start, "read lock failed: " + e.getMessage());
            return false;
        }
        if (taken) {
            history.readLocked(name, start, lock == locks.get(lockName) ? "locked (no read lock: exclusive)"
                    : "read-locked");
        } else {
            history.denied(name, start, "no read lock after " + (history.now() - start) / 1_000_000 + " ms");
        }
        return taken;
    }

    /** Reads for {@code work} under the read side: recorded as a read, which other reads may share. */
    public void read(Duration work) throws InterruptedException {
        history.record(name, Kind.READ_ENTER, "reads");
        Thread.sleep(work.toMillis());
        history.record(name, Kind.READ_EXIT, "done reading");
    }

    /** Unlocks the read side of {@code lockName}; recorded. */
    public void readUnlock(String lockName) {
        long start = history.now();
        readSide(lockName).unlock();
        history.recordAt(start, name, Kind.NOTE, "read unlock");
    }

    private DistLock readSide(String lockName) {
        DistLock lock = locks.get(lockName);
        return lock instanceof ReadWriteDistLock readWrite ? readWrite.readLock() : lock;
    }

    /** The token of this actor's hold of {@code lockName}; null when the stage hands out none. */
    public Long token(String lockName) {
        return locks.get(lockName) instanceof FencedLock fenced ? fenced.token() : null;
    }

    /**
     * Reads the quantity of {@code item} in {@code table}, fenced by {@code token} when there is one,
     * entering the critical section; recorded.
     *
     * @throws dev.lockstep.testkit.resource.StaleTokenException when the table refused the token
     */
    public long readStock(StockTable table, String item, Long token) {
        long quantity = token == null ? table.row(item).quantity() : StockTable.read(table.url(), item, token);
        enter("reads stock=" + quantity + (token == null ? "" : " with token " + token));
        return quantity;
    }

    /** Writes {@code quantity} for {@code item}, fenced by {@code token} when there is one; recorded. */
    public void writeStock(StockTable table, String item, long quantity, Long token) {
        if (token == null) {
            StockTable.write(table.url(), item, quantity);
        } else {
            StockTable.write(table.url(), item, quantity, token);
        }
        exit("writes stock=" + quantity + (token == null ? "" : " with token " + token));
    }

    /** Waits up to {@code timeout} for the stage to say this actor lost a lease; true when it did. */
    public boolean awaitLeaseLoss(Duration timeout) throws InterruptedException {
        return losses.tryAcquire(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Records entering the critical section. */
    public void enter(String detail) {
        history.record(name, Kind.ENTER, detail);
    }

    /** Records leaving the critical section. */
    public void exit(String detail) {
        history.record(name, Kind.EXIT, detail);
    }

    /** Records a step of the story that is neither a lock call nor a critical section. */
    public void note(String detail) {
        history.record(name, Kind.NOTE, detail);
    }

    /** The critical section: records enter and exit around {@code work}. */
    public void critical(Duration work) throws InterruptedException {
        critical(work, null);
    }

    /** The critical section with a read-modify-write of {@code counter} around {@code work}, as unprotected code would do it. */
    public void critical(Duration work, ProtectedCounter counter) throws InterruptedException {
        long read = counter == null ? 0 : counter.read();
        enter(counter == null ? "enter" : "enter, read counter=" + read);
        Thread.sleep(work.toMillis());
        if (counter != null) {
            counter.write(read + 1);
        }
        exit(counter == null ? "exit" : "exit, wrote counter=" + (read + 1));
    }

    /** Unlocks {@code lockName}; true when the stage accepted the unlock, false when it refused. */
    public boolean unlock(String lockName) {
        return release(lockName) == Unlock.DONE;
    }

    /** How an unlock call ended: done, refused (not the holder), or failed with its outcome unknown. */
    public enum Unlock { DONE, REFUSED, FAILED }

    /** Unlocks as {@link #unlock} does, telling a refusal from a call whose outcome is unknown. */
    public Unlock release(String lockName) {
        // Recorded at the call's start: another client may take the released lock before the call returns.
        long start = history.now();
        try {
            locks.get(lockName).unlock();
            history.unlocked(start, name, Math.max(0, depth.decrementAndGet()), "unlock");
            return Unlock.DONE;
        } catch (IllegalMonitorStateException e) {
            depth.set(0);
            history.recordAt(start, name, Kind.UNLOCK_REFUSED, "unlock refused: " + e.getMessage());
            return Unlock.REFUSED;
        } catch (LockException e) {
            history.recordAt(start, name, Kind.UNLOCK_REFUSED, "unlock failed: " + e.getMessage());
            return Unlock.FAILED;
        }
    }

    /** Stops this client without unlocking, as a crash would (background work stops, locks stay until they expire). */
    public void crash() {
        locks.close();
        depth.set(0);
        history.record(name, Kind.CRASH, "crashed without unlocking");
    }

    private static String leaseNote(Duration lease) {
        return lease == null ? "" : " (lease " + lease.toMillis() + " ms)";
    }
}
