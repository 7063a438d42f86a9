package dev.lockstep.v5;

import dev.lockstep.DistLock;
import dev.lockstep.Guarantee;
import dev.lockstep.LockOptions;
import dev.lockstep.v4.WatchdogLocks;
import dev.lockstep.v5.internal.PubSubLock;
import dev.lockstep.v5.internal.Subscriber;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import redis.clients.jedis.UnifiedJedis;

/**
 * Stage 5: stage 4's lock, with waiters that sleep until a release is published instead of
 * polling Redis. One {@link Subscriber} connection per client serves all its waiters. See
 * {@link PubSubLock} for the waiting itself.
 */
public class PubSubLocks extends WatchdogLocks {

    private static final Set<Guarantee> CLAIMS = EnumSet.of(Guarantee.LIVENESS_AFTER_CRASH,
            Guarantee.OWNER_ONLY_RELEASE, Guarantee.REENTRANT, Guarantee.LEASE_RENEWAL, Guarantee.LEASE_LOSS_SIGNAL,
            Guarantee.RETRY_SAFE, Guarantee.EFFICIENT_WAIT, Guarantee.WAKE_AFTER_RECONNECT, Guarantee.REPLICATED_ACQUIRE);

    private final Subscriber subscriber;

    /** A client of the stage-5 lock over {@code redis}. */
    public PubSubLocks(UnifiedJedis redis, LockOptions options) {
        this(redis, options, EnumSet.copyOf(CLAIMS));
    }

    /** For later stages that build on this one and claim more: see {@link #claimsAnd}. */
    protected PubSubLocks(UnifiedJedis redis, LockOptions options, Set<Guarantee> guarantees) {
        super(redis, options, guarantees);
        this.subscriber = new Subscriber(List.of(redis), "lockstep-subscriber-" + clientId().substring(0, 8),
                options.spinInterval(), options.observer());
    }

    /** What a lock built on this stage claims: everything stage 5 claims, and {@code more}. */
    protected static Set<Guarantee> claimsAnd(Guarantee... more) {
        Set<Guarantee> claims = EnumSet.copyOf(CLAIMS);
        claims.addAll(List.of(more));
        return claims;
    }

    @Override
    protected DistLock newLock(String name) {
        return new PubSubLock(name, this, watchdog(), subscriber);
    }

    /** The subscriber all of this client's waiters share. */
    protected final Subscriber subscriber() {
        return subscriber;
    }

    /** The channels this client listens on right now, for tests: none once no one waits. */
    Set<String> subscribedChannels() {
        return subscriber.channels();
    }

    /** Also ends the subscription: waiters still sleeping wake by their lease-bounded timeouts. */
    @Override
    public void close() {
        super.close();
        subscriber.close();
    }
}
