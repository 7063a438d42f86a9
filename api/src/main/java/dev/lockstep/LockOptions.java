package dev.lockstep;

import dev.lockstep.internal.Args;
import java.time.Duration;
import java.util.Objects;

/**
 * Tuning shared by every stage; build from {@link #defaults()} and the {@code with...} copies.
 *
 * <p>Every duration is checked when built: leases between {@link Args#MIN_LEASE} and
 * {@link Args#MAX_LEASE}, the others at least a millisecond (Redis and sockets count in whole
 * milliseconds, and to them 0 means "no timeout at all").
 *
 * @param lease           how long a lock taken without an explicit lease lives, in stages without a watchdog; default 30 s
 * @param spinInterval    how long a spinning waiter sleeps between attempts; default 100 ms
 * @param watchdogTimeout from v4 on, the lease of a lock taken without an explicit lease, renewed every third of it;
 *                        default 30 s
 * @param nodeTimeout     in v6, how long one node may take to answer before the fan-out counts it as failed;
 *                        default 100 ms
 * @param syncReplicas    from v4 on, how many replicas must acknowledge an acquisition ({@code WAIT}); default 0: none
 * @param syncTimeout     how long an acquisition waits for those acknowledgements; default 1 s
 * @param observer        told what this client's locks do, for metrics; default {@link LockObserver#NONE}
 */
public record LockOptions(Duration lease, Duration spinInterval, Duration watchdogTimeout, Duration nodeTimeout,
                          int syncReplicas, Duration syncTimeout, LockObserver observer) {

    private static final Duration ONE_MILLI = Duration.ofMillis(1);

    /** Checks every field: a clear message at construction, not a Redis error later. */
    public LockOptions {
        Args.within(lease, Args.MIN_LEASE, Args.MAX_LEASE, "lease");
        Args.within(spinInterval, ONE_MILLI, Args.MAX_LEASE, "spinInterval");
        Args.within(watchdogTimeout, Args.MIN_LEASE, Args.MAX_LEASE, "watchdogTimeout");
        Args.within(nodeTimeout, ONE_MILLI, Args.MAX_LEASE, "nodeTimeout");
        if (syncReplicas < 0) {
            throw new IllegalArgumentException("syncReplicas must not be negative, was " + syncReplicas);
        }
        Args.within(syncTimeout, ONE_MILLI, Args.MAX_LEASE, "syncTimeout");
        Objects.requireNonNull(observer, "observer must not be null (LockObserver.NONE observes nothing)");
    }

    /** Lease 30 s, spin interval 100 ms, watchdog timeout 30 s (Redisson's defaults), node timeout 100 ms, no replica sync, no observer. */
    public static LockOptions defaults() {
        return new LockOptions(Duration.ofSeconds(30), Duration.ofMillis(100), Duration.ofSeconds(30),
                Duration.ofMillis(100), 0, Duration.ofSeconds(1), LockObserver.NONE);
    }

    /** A copy with another default lease (default 30 s). */
    public LockOptions withLease(Duration lease) {
        return new LockOptions(lease, spinInterval, watchdogTimeout, nodeTimeout, syncReplicas, syncTimeout, observer);
    }

    /** A copy with another spin interval (default 100 ms, at least 1 ms). */
    public LockOptions withSpinInterval(Duration spinInterval) {
        return new LockOptions(lease, spinInterval, watchdogTimeout, nodeTimeout, syncReplicas, syncTimeout, observer);
    }

    /** A copy with another node timeout (default 100 ms). */
    public LockOptions withNodeTimeout(Duration nodeTimeout) {
        return new LockOptions(lease, spinInterval, watchdogTimeout, nodeTimeout, syncReplicas, syncTimeout, observer);
    }

    /**
     * A copy whose acquisitions count only once {@code replicas} replicas acknowledged them within
     * {@code timeout}, as Redisson's replica sync does: the lock then survives a failover to a
     * replica that was alive. It is not consensus: an acknowledged replica may still lose the key.
     * Default: 0 replicas (off), 1 s.
     */
    public LockOptions withReplicaSync(int replicas, Duration timeout) {
        return new LockOptions(lease, spinInterval, watchdogTimeout, nodeTimeout, replicas, timeout, observer);
    }

    /** A copy whose locks tell {@code observer} what they do (default {@link LockObserver#NONE}). */
    public LockOptions withObserver(LockObserver observer) {
        return new LockOptions(lease, spinInterval, watchdogTimeout, nodeTimeout, syncReplicas, syncTimeout, observer);
    }

    /** A copy with another watchdog timeout (default 30 s). */
    public LockOptions withWatchdogTimeout(Duration watchdogTimeout) {
        return new LockOptions(lease, spinInterval, watchdogTimeout, nodeTimeout, syncReplicas, syncTimeout, observer);
    }
}
