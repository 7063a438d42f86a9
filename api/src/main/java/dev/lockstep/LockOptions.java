package dev.lockstep;

import java.time.Duration;

/**
 * Tuning shared by every stage; build from {@link #defaults()} and the {@code with...} copies.
 *
 * @param lease           how long a lock taken without an explicit lease lives, in stages without a watchdog
 * @param spinInterval    how long a spinning waiter sleeps between attempts
 * @param watchdogTimeout from v4 on, the lease of a lock taken without an explicit lease, renewed every third of it
 * @param nodeTimeout     in v6, how long one node may take to answer before the fan-out counts it as failed
 * @param syncReplicas    from v4 on, how many replicas must acknowledge an acquisition ({@code WAIT}); 0: none
 * @param syncTimeout     how long an acquisition waits for those acknowledgements
 */
public record LockOptions(Duration lease, Duration spinInterval, Duration watchdogTimeout, Duration nodeTimeout,
                          int syncReplicas, Duration syncTimeout) {

    /** Checks every field: a clear message at construction, not a Redis error later. */
    public LockOptions {
        Args.positive(lease, "lease");
        Args.positive(spinInterval, "spinInterval");
        Args.positive(watchdogTimeout, "watchdogTimeout");
        Args.positive(nodeTimeout, "nodeTimeout");
        if (syncReplicas < 0) {
            throw new IllegalArgumentException("syncReplicas must not be negative, was " + syncReplicas);
        }
        Args.positive(syncTimeout, "syncTimeout");
    }

    /** Lease 30 s, spin interval 100 ms, watchdog timeout 30 s (Redisson's defaults), node timeout 100 ms, no replica sync. */
    public static LockOptions defaults() {
        return new LockOptions(Duration.ofSeconds(30), Duration.ofMillis(100), Duration.ofSeconds(30),
                Duration.ofMillis(100), 0, Duration.ofSeconds(1));
    }

    /** A copy with another default lease. */
    public LockOptions withLease(Duration lease) {
        return new LockOptions(lease, spinInterval, watchdogTimeout, nodeTimeout, syncReplicas, syncTimeout);
    }

    /** A copy with another spin interval. */
    public LockOptions withSpinInterval(Duration spinInterval) {
        return new LockOptions(lease, spinInterval, watchdogTimeout, nodeTimeout, syncReplicas, syncTimeout);
    }

    /** A copy with another node timeout. */
    public LockOptions withNodeTimeout(Duration nodeTimeout) {
        return new LockOptions(lease, spinInterval, watchdogTimeout, nodeTimeout, syncReplicas, syncTimeout);
    }

    /**
     * A copy whose acquisitions count only once {@code replicas} replicas acknowledged them within
     * {@code timeout}, as Redisson's replica sync does: the lock then survives a failover to a
     * replica that was alive. It is not consensus: an acknowledged replica may still lose the key.
     */
    public LockOptions withReplicaSync(int replicas, Duration timeout) {
        return new LockOptions(lease, spinInterval, watchdogTimeout, nodeTimeout, replicas, timeout);
    }

    /** A copy with another watchdog timeout. */
    public LockOptions withWatchdogTimeout(Duration watchdogTimeout) {
        return new LockOptions(lease, spinInterval, watchdogTimeout, nodeTimeout, syncReplicas, syncTimeout);
    }
}
