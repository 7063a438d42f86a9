package dev.lockstep;

import java.time.Duration;

/**
 * A lock whose every hold carries a fencing token: a number from the same script that grants the
 * lock, greater than every token handed out before for its name. Send it with each write to the
 * resource the lock protects, and have the resource refuse a token lower than one it has already
 * seen: a holder that paused past its lease then cannot overwrite its successor's work. Like
 * Redisson's {@code RFencedLock}, except that a re-entry keeps its hold's token.
 */
public interface FencedLock extends DistLock {

    /**
     * The token of this thread's current hold; a re-entry shares the outer hold's token.
     *
     * @throws IllegalMonitorStateException when this thread does not hold the lock (never took it,
     *                                      unlocked it, or its lease was lost)
     */
    long token();

    /**
     * {@link #lock()}, then this hold's {@link #token()}.
     *
     * @throws IllegalStateException      when this lock's {@link Locks} is closed
     * @throws RedisUnreachableException when Redis stays unreachable for ten retry intervals
     * @throws RedisRefusedException     when Redis refuses a command (a missing ACL permission)
     */
    default long lockAndGetToken() {
        lock();
        return token();
    }

    /**
     * {@link #tryLock(Duration, Duration)}, then this hold's {@link #token()}; null when the lock
     * was not taken within {@code wait}.
     *
     * @throws NullPointerException       when {@code wait} is null
     * @throws IllegalArgumentException   when {@code wait} is negative, or {@code lease} zero, negative or absurd
     * @throws IllegalStateException      when this lock's {@link Locks} is closed
     * @throws InterruptedException       when the thread is interrupted while it waits; it holds nothing then
     * @throws RedisUnreachableException when Redis stays unreachable for ten retry intervals
     * @throws RedisRefusedException     when Redis refuses a command (a missing ACL permission)
     */
    default Long tryLockAndGetToken(Duration wait, Duration lease) throws InterruptedException {
        return tryLock(wait, lease) ? token() : null;
    }
}
