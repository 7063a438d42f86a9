package dev.lockstep;

import java.time.Instant;

/**
 * A hold this client lost: its lease ran out before a renewal reached Redis, so another client
 * may hold the lock now.
 *
 * @param lockName the lock
 * @param threadId the thread that held it, or for a {@link LockHold} a negative number of its own
 * @param lostAt   when the lease ran out, by this client's clock (a safe, slightly early estimate)
 * @param reason   why, in a few words
 */
public record LeaseLoss(String lockName, long threadId, Instant lostAt, String reason) {
}
