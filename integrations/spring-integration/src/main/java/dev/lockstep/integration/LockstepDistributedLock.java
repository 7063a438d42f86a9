package dev.lockstep.integration;

import dev.lockstep.DistLock;
import dev.lockstep.internal.Args;
import java.time.Duration;
import java.util.ConcurrentModificationException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import org.springframework.integration.support.locks.DistributedLock;

/**
 * A {@link DistLock} as Spring Integration's {@link DistributedLock}: every call goes to the
 * lock, with its semantics (re-entrant, owned by the calling thread, watchdog-renewed without a
 * ttl). Beside it, how many holds each thread took through this adapter, so the registry can tell
 * an unused adapter from one a thread still holds, and an unlock that found its hold gone (Spring's
 * registries say {@link ConcurrentModificationException}) from one by a thread that never held it.
 */
final class LockstepDistributedLock implements DistributedLock {

    private final DistLock lock;
    /** Holds taken through this adapter, per thread id; a thread leaves the map with its last unlock. */
    private final Map<Long, Integer> holds = new ConcurrentHashMap<>();
    private volatile long lastUsed = System.currentTimeMillis();

    LockstepDistributedLock(DistLock lock) {
        this.lock = lock;
    }

    /** Blocks until held, renewed by the watchdog. */
    @Override
    public void lock() {
        lock.lock();
        held();
    }

    /** Blocks until held for {@code ttl} (under 10 ms: 10 ms, the shortest lease a lock takes), which is not renewed. */
    @Override
    public void lock(Duration ttl) {
        lock.lock(atLeastShortest(ttl));
        held();
    }

    /** Blocks until held, renewed by the watchdog, or the thread is interrupted. */
    @Override
    public void lockInterruptibly() throws InterruptedException {
        lock.lockInterruptibly();
        held();
    }

    /** One attempt; true when held, renewed by the watchdog. */
    @Override
    public boolean tryLock() {
        return held(lock.tryLock());
    }

    /** Waits at most {@code time} {@code unit}s; true when held, renewed by the watchdog. */
    @Override
    public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
        return held(lock.tryLock(time, unit));
    }

    /** Waits at most {@code waitTime}; true when held for {@code ttl} (under 10 ms: 10 ms), which is not renewed. */
    @Override
    public boolean tryLock(Duration waitTime, Duration ttl) throws InterruptedException {
        return held(lock.tryLock(waitTime, atLeastShortest(ttl)));
    }

    /**
     * Ends one hold of this thread. A thread that held the lock through this adapter counts it
     * ended whatever the outcome: released, lost before the call, or Redis away (the lease ends it).
     *
     * @throws IllegalMonitorStateException    when this thread does not hold the lock through this adapter
     * @throws ConcurrentModificationException when it did, but its ttl ran out or the hold was lost first, so
     *                                         another process may have held the lock since (as Spring's own
     *                                         registries say it); Lockstep's exception is its cause
     */
    @Override
    public void unlock() {
        boolean held = holds.containsKey(Thread.currentThread().getId());
        try {
            lock.unlock();
        } catch (IllegalMonitorStateException gone) {
            if (!held) {
                throw gone;
            }
            ConcurrentModificationException lost = new ConcurrentModificationException("lock '" + lock.name()
                    + "' was no longer this thread's at unlock: its ttl ran out or its hold was lost, so the data"
                    + " it protects may have been changed by another process meanwhile");
            lost.initCause(gone);
            throw lost;
        } finally {
            holds.computeIfPresent(Thread.currentThread().getId(), (thread, count) -> count == 1 ? null : count - 1);
            lastUsed = System.currentTimeMillis();
        }
    }

    /**
     * {@code ttl}, or the shortest lease a lock takes when it is shorter: Spring's registries take
     * any positive ttl. Null stays null (the watchdog's lease); zero and negative are refused by the lock.
     */
    static Duration atLeastShortest(Duration ttl) {
        return ttl != null && !ttl.isNegative() && !ttl.isZero() && ttl.compareTo(Args.MIN_LEASE) < 0 ? Args.MIN_LEASE : ttl;
    }

    /** Throws {@link UnsupportedOperationException}: a distributed lock has no local monitor to wait on. */
    @Override
    public Condition newCondition() {
        return lock.newCondition();
    }

    /** This adapter, its last use now. */
    LockstepDistributedLock touched() {
        lastUsed = System.currentTimeMillis();
        return this;
    }

    /** Whether no thread holds the lock through this adapter and it was last used at or before {@code cutoff}. */
    boolean unusedSince(long cutoff) {
        return holds.isEmpty() && lastUsed <= cutoff;
    }

    /** The adapter and its lock's name, for logs. */
    @Override
    public String toString() {
        return "LockstepDistributedLock[" + lock.name() + "]";
    }

    private boolean held(boolean taken) {
        if (taken) {
            held();
        }
        return taken;
    }

    private void held() {
        holds.merge(Thread.currentThread().getId(), 1, Integer::sum);
        lastUsed = System.currentTimeMillis();
    }
}
