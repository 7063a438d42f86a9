package dev.lockstep.fair;

import dev.lockstep.DistLock;
import dev.lockstep.Guarantee;
import dev.lockstep.LockOptions;
import dev.lockstep.internal.Args;
import dev.lockstep.v5.PubSubLocks;
import java.time.Duration;
import redis.clients.jedis.UnifiedJedis;

/**
 * The fair lock of the lock family: stage 5's lock (watchdog renewals, waiters asleep on a
 * channel), granted in the order requests reach Redis, in the layout of Redisson's
 * {@code RFairLock}, so Redisson's {@code getFairLock(name)} and {@code get(name)} here are one
 * lock. See {@link FairLock}.
 */
public final class FairLocks extends PubSubLocks {

    /**
     * How long a queued waiter keeps its place without asking again, by default. A live waiter
     * asks every third of it; a dead one holds up the queue for at most this long.
     */
    public static final Duration DEFAULT_WAITER_TIMEOUT = Duration.ofSeconds(5);

    /** The shortest waiter timeout: a waiter asks again every third of it, which must leave time for a round trip. */
    private static final Duration MIN_WAITER_TIMEOUT = Duration.ofMillis(30);

    private final Duration waiterTimeout;

    /** A client of the fair lock over {@code redis}, with the {@link #DEFAULT_WAITER_TIMEOUT}. */
    public FairLocks(UnifiedJedis redis, LockOptions options) {
        this(redis, options, DEFAULT_WAITER_TIMEOUT);
    }

    /**
     * A client of the fair lock over {@code redis} whose waiters keep their places for
     * {@code waiterTimeout} between requests (at least 30 ms).
     *
     * @throws IllegalArgumentException when {@code waiterTimeout} is under 30 ms
     */
    public FairLocks(UnifiedJedis redis, LockOptions options, Duration waiterTimeout) {
        this(Args.within(waiterTimeout, MIN_WAITER_TIMEOUT, Args.MAX_LEASE, "waiterTimeout"), redis, options);
    }

    /** Checked before anything is built. */
    private FairLocks(Duration waiterTimeout, UnifiedJedis redis, LockOptions options) {
        super(redis, options, claimsAnd(Guarantee.FAIR_ORDER));
        this.waiterTimeout = waiterTimeout;
    }

    @Override
    protected DistLock newLock(String name) {
        return new FairLock(name, this, watchdog(), subscriber(), waiterTimeout);
    }
}
