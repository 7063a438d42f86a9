package dev.lockstep;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;
import java.util.function.Consumer;

/**
 * A lock whose state lives in Redis, shared by every process that uses the same name.
 *
 * <p>{@code lease == null} means the stage's default: the fixed lease of {@link LockOptions#lease()}
 * in the stages before the watchdog. A lease bounds how long a crashed holder blocks everyone else.
 */
public interface DistLock extends Lock {

    /** The lock's name, as given to {@link Locks#get(String)}. */
    String name();

    /**
     * Blocks until the lock is held for {@code lease} (null: the stage's default), ignoring
     * interrupts as {@link Lock#lock()} does (the interrupt stays set).
     *
     * @throws IllegalArgumentException when {@code lease} is zero, negative or absurd (outside 10 ms to 365 days)
     * @throws IllegalStateException    when this lock's {@link Locks} is closed
     * @throws RedisUnreachableException when Redis stays unreachable for ten retry intervals
     * @throws RedisRefusedException     when Redis refuses a command (a missing ACL permission)
     * @throws LockException            when an acquisition cannot count (too few replicas acknowledged it)
     */
    void lock(Duration lease);

    /**
     * Blocks until the lock is held for the stage's default lease: {@code lock(null)}.
     *
     * @throws IllegalStateException      when this lock's {@link Locks} is closed
     * @throws RedisUnreachableException when Redis stays unreachable for ten retry intervals
     * @throws RedisRefusedException     when Redis refuses a command (a missing ACL permission)
     */
    @Override
    void lock();

    /**
     * Blocks until the lock is held for the stage's default lease, or the thread is interrupted.
     *
     * @throws InterruptedException       when the thread is interrupted while it waits; it holds nothing then
     * @throws IllegalStateException      when this lock's {@link Locks} is closed
     * @throws RedisUnreachableException when Redis stays unreachable for ten retry intervals
     * @throws RedisRefusedException     when Redis refuses a command (a missing ACL permission)
     */
    @Override
    void lockInterruptibly() throws InterruptedException;

    /**
     * One attempt to take the lock for the stage's default lease; true when taken.
     *
     * @throws IllegalStateException      when this lock's {@link Locks} is closed
     * @throws RedisUnreachableException when Redis does not answer
     * @throws RedisRefusedException     when Redis refuses a command (a missing ACL permission)
     */
    @Override
    boolean tryLock();

    /**
     * Waits at most {@code time} {@code unit}s (zero or negative: one attempt) to take the lock for
     * the stage's default lease; true when taken.
     *
     * @throws NullPointerException       when {@code unit} is null
     * @throws InterruptedException       when the thread is interrupted while it waits; it holds nothing then
     * @throws IllegalStateException      when this lock's {@link Locks} is closed
     * @throws RedisUnreachableException when Redis stays unreachable for ten retry intervals
     * @throws RedisRefusedException     when Redis refuses a command (a missing ACL permission)
     */
    @Override
    boolean tryLock(long time, TimeUnit unit) throws InterruptedException;

    /**
     * Waits at most {@code wait} (zero: one attempt) to take the lock for {@code lease} (null: the
     * stage's default); true when taken.
     *
     * @throws NullPointerException     when {@code wait} is null
     * @throws IllegalArgumentException when {@code wait} is negative, or {@code lease} zero, negative or absurd
     * @throws IllegalStateException    when this lock's {@link Locks} is closed
     * @throws InterruptedException     when the thread is interrupted while it waits; it holds nothing then
     * @throws RedisUnreachableException when Redis stays unreachable for ten retry intervals
     * @throws RedisRefusedException     when Redis refuses a command (a missing ACL permission)
     * @throws LockException            when an acquisition cannot count (too few replicas acknowledged it)
     */
    boolean tryLock(Duration wait, Duration lease) throws InterruptedException;

    /**
     * Waits at most {@code wait} (zero: one attempt) to take the lock for {@code lease} (null: the
     * stage's default, renewed by the watchdog from stage 4 on) as a {@link LockHold} that belongs to
     * no thread; empty when not taken in time.
     *
     * @throws NullPointerException     when {@code wait} is null
     * @throws IllegalArgumentException when {@code wait} is negative, or {@code lease} zero, negative or absurd
     * @throws IllegalStateException    when this lock's {@link Locks} is closed
     * @throws InterruptedException     when the thread is interrupted while it waits; it holds nothing then
     * @throws RedisUnreachableException when Redis stays unreachable for ten retry intervals
     * @throws RedisRefusedException     when Redis refuses a command (a missing ACL permission)
     */
    Optional<LockHold> tryAcquire(Duration wait, Duration lease) throws InterruptedException;

    /**
     * Sets the remaining lease of this thread's hold to {@code lease}, in one owner-checked script:
     * from now on it is a fixed lease, which a watchdog no longer renews (a later re-entry without
     * a lease renews it again).
     *
     * @throws NullPointerException          when {@code lease} is null
     * @throws IllegalArgumentException      when {@code lease} is outside 10 ms to 365 days
     * @throws IllegalMonitorStateException  when this thread does not hold the lock, or Redis no longer has its hold
     * @throws LeaseLostException            when this thread's hold was lost before the call, or while it was on its
     *                                       way (the old lease ran out before the reply: the new one is given back)
     * @throws UnsupportedOperationException when the stage cannot tell its holder's key from another's (stage 1)
     * @throws IllegalStateException         when this lock's {@link Locks} is closed
     * @throws RedisUnreachableException     when Redis does not answer; the lease may or may not be set
     * @throws RedisRefusedException         when Redis refuses (a missing ACL permission)
     */
    void extend(Duration lease);

    /**
     * Ends one hold of this thread; the last one releases the lock (and, from stage 3 on, announces
     * the release to waiters). Call it on the thread that locked.
     *
     * @throws IllegalMonitorStateException when this thread does not hold the lock (never took it, or,
     *                                      from stage 2 on, its lease ran out or was lost first)
     * @throws IllegalStateException        when this lock's {@link Locks} is closed
     * @throws RedisUnreachableException   when Redis does not answer; the lease still ends the hold
     * @throws RedisRefusedException       when Redis refuses the unlock (a missing ACL permission)
     */
    @Override
    void unlock();

    /**
     * Whether this thread holds the lock, as far as this stage can tell. Stages without a
     * lease-loss signal cannot tell that a lease ran out, so they may answer true too long.
     */
    boolean isHeldByCurrentThread();

    /**
     * Whether anyone holds the lock now, as Redis says (a quorum stage: as a quorum of its nodes
     * say), like Redisson's {@code isLocked()}.
     *
     * @throws RedisUnreachableException when Redis does not answer
     * @throws RedisRefusedException     when Redis refuses (a missing ACL permission)
     */
    boolean isLocked();

    /**
     * How long the current hold's lease still runs, as Redis says ({@link Duration#ZERO} when nobody
     * holds the lock), like Redisson's {@code remainTimeToLive()}. A quorum stage answers for the
     * quorum: the time until fewer than a quorum of nodes still have the lock.
     *
     * @throws RedisUnreachableException when Redis does not answer
     * @throws RedisRefusedException     when Redis refuses (a missing ACL permission)
     */
    Duration remainingLease();

    /**
     * How many times this thread holds the lock (each re-entry counts), 0 when it holds none; like
     * Redisson's {@code getHoldCount()}. Stages that cannot re-enter answer 0 or 1.
     *
     * @throws LockException when the stage keeps the count in Redis and Redis does not answer or refuses
     *                       ({@link RedisUnreachableException}, {@link RedisRefusedException})
     */
    int holdCount();

    /**
     * Administrative: deletes the lock whoever holds it and wakes its waiters, like Redisson's
     * {@code forceUnlock()}. The holder is not asked: from stage 4 on it learns at its next
     * renewal ({@link #onLeaseLost} fires); earlier stages never learn. True when there was a
     * lock to delete.
     *
     * @throws RedisUnreachableException when Redis does not answer
     * @throws RedisRefusedException     when Redis refuses (a missing ACL permission)
     */
    boolean forceUnlock();

    /**
     * Calls {@code listener} once each time a hold of this lock by this client is lost: its lease
     * ran out before a renewal reached Redis, so another client may hold the lock already. Only
     * stages that claim {@link Guarantee#LEASE_LOSS_SIGNAL} can tell; the others never call it.
     */
    void onLeaseLost(Consumer<LeaseLoss> listener);

    /** Conditions need a local monitor; a distributed lock has none. */
    @Override
    default Condition newCondition() {
        throw new UnsupportedOperationException("a distributed lock has no conditions: " + name());
    }
}
