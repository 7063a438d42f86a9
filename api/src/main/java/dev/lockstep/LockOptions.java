package dev.lockstep;

import java.time.Duration;

/**
 * Tuning shared by every stage; build from {@link #defaults()} and the {@code with...} copies.
 *
 * @param lease        how long a lock taken without an explicit lease lives (stages without a watchdog)
 * @param spinInterval how long a spinning waiter sleeps between attempts
 */
public record LockOptions(Duration lease, Duration spinInterval) {

    /** Checks every field: a clear message at construction, not a Redis error later. */
    public LockOptions {
        Args.positive(lease, "lease");
        Args.positive(spinInterval, "spinInterval");
    }

    /** Lease 30 s and spin interval 100 ms, Redisson's defaults. */
    public static LockOptions defaults() {
        return new LockOptions(Duration.ofSeconds(30), Duration.ofMillis(100));
    }

    /** A copy with another default lease. */
    public LockOptions withLease(Duration lease) {
        return new LockOptions(lease, spinInterval);
    }

    /** A copy with another spin interval. */
    public LockOptions withSpinInterval(Duration spinInterval) {
        return new LockOptions(lease, spinInterval);
    }
}
