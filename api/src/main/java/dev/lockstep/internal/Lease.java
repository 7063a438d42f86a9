package dev.lockstep.internal;

/**
 * How long one acquisition asks to hold the lock.
 *
 * @param millis   the lease in milliseconds
 * @param explicit true when the caller chose it, false for the stage's default (the watchdog's, from v4 on)
 */
public record Lease(long millis, boolean explicit) {
}
