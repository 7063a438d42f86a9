package dev.lockstep.v4;

import dev.lockstep.DistLock;
import dev.lockstep.Guarantee;
import dev.lockstep.LockOptions;
import dev.lockstep.internal.AbstractLocks;
import dev.lockstep.v4.internal.Watchdog;
import dev.lockstep.v4.internal.WatchdogLock;
import java.util.EnumSet;
import java.util.Set;
import redis.clients.jedis.UnifiedJedis;

/**
 * Stage 4: stage 3's reentrant hash, plus one {@link Watchdog} per client that renews every
 * lock taken without an explicit lease and tells the holder when a lease is lost. See
 * {@link WatchdogLock} for the lock itself.
 */
public class WatchdogLocks extends AbstractLocks {

    private final Watchdog watchdog = new Watchdog(clientId().substring(0, 8), options().observer());

    /** A client of the stage-4 lock over {@code redis}. */
    public WatchdogLocks(UnifiedJedis redis, LockOptions options) {
        this(redis, options, EnumSet.of(Guarantee.LIVENESS_AFTER_CRASH, Guarantee.OWNER_ONLY_RELEASE,
                Guarantee.REENTRANT, Guarantee.LEASE_RENEWAL, Guarantee.LEASE_LOSS_SIGNAL, Guarantee.RETRY_SAFE,
                Guarantee.REPLICATED_ACQUIRE));
    }

    /** For later stages that build on this one and claim more. */
    protected WatchdogLocks(UnifiedJedis redis, LockOptions options, Set<Guarantee> guarantees) {
        super(redis, options, guarantees);
    }

    @Override
    protected DistLock newLock(String name) {
        return new WatchdogLock(name, this, watchdog);
    }

    /** The watchdog all of this client's locks share. */
    protected final Watchdog watchdog() {
        return watchdog;
    }

    /** Stops renewing: held locks run out as after a crash. */
    @Override
    public void close() {
        super.close();
        watchdog.close();
    }
}
