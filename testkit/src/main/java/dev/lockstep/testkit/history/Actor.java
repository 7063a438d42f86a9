package dev.lockstep.testkit.history;

import dev.lockstep.DistLock;
import dev.lockstep.FencedLock;
import dev.lockstep.LockException;
import dev.lockstep.Locks;
import dev.lockstep.ReadWriteDistLock;
import dev.lockstep.testkit.history.History.Kind;
import dev.lockstep.testkit.resource.StockTable;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

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
    private final SeveralNames severalNames;

    /** A client called {@code name} on {@code locks}, recording into {@code history}; its lock calls default to {@code defaultLease}. */
    public Actor(String name, Locks locks, Duration defaultLease, History history) {
        this.name = name;
        this.locks = locks;
        this.defaultLease = defaultLease;
        this.history = history;
        this.severalNames = new SeveralNames(name, locks, history, defaultLease, this::listen);
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
            history.acquired(name, start, effective, holds, what + History.leaseNote(lease)
                    + (token == null ? "" : ", token " + token));
        } else {
            history.denied(name, start, "gave up after " + (history.now() - start) / 1_000_000 + " ms"
                    + (depth.get() > 0 ? " though it holds the lock" : ""));
        }
        return taken;
    }

    /** This actor's locks over several names: one lock on a {@link dev.lockstep.CompositeLocks} client, nested by hand on any other. */
    public SeveralNames severalNames() {
        return severalNames;
    }

    /** Records the next lease this actor's {@code lock} (listed as {@code key}) loses. */
    void listen(String key, DistLock lock) {
        if (listening.add(key)) {
            lock.onLeaseLost(loss -> {
                history.record(name, Kind.LOST, "told: lease lost (" + loss.reason() + ")");
                losses.release();
            });
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
}
