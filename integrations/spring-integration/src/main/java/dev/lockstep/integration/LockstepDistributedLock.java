package dev.lockstep.integration;

import dev.lockstep.DistLock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import org.springframework.integration.support.locks.DistributedLock;

/**
 * A {@link DistLock} as Spring Integration's {@link DistributedLock}: every call goes to the
 * lock, with its semantics (re-entrant, owned by the calling thread, watchdog-renewed without a
 * ttl). Beside it, how many holds each thread took through this adapter, so the registry can tell
 * an unused adapter from one a thread still holds.
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

    /** Blocks until held for {@code ttl}, which is not renewed. */
    @Override
    public void lock(Duration ttl) {
        lock.lock(ttl);
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

    /** Waits at most {@code waitTime}; true when held for {@code ttl}, which is not renewed. */
    @Override
    public boolean tryLock(Duration waitTime, Duration ttl) throws InterruptedException {
        return held(lock.tryLock(waitTime, ttl));
    }

    /**
     * Ends one hold of this thread. A thread that held the lock through this adapter counts it
     * ended whatever the outcome: released, lost before the call, or Redis away (the lease ends it).
     *
     * @throws IllegalMonitorStateException when this thread does not hold the lock, or its lease was lost
     */
    @Override
    public void unlock() {
        try {
            lock.unlock();
        } finally {
            holds.computeIfPresent(Thread.currentThread().getId(), (thread, count) -> count == 1 ? null : count - 1);
            lastUsed = System.currentTimeMillis();
        }
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
