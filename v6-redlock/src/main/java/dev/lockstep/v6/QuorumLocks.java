package dev.lockstep.v6;

import dev.lockstep.internal.AbstractLocks;
import dev.lockstep.DistLock;
import dev.lockstep.Guarantee;
import dev.lockstep.LockOptions;
import dev.lockstep.v4.internal.Watchdog;
import dev.lockstep.v5.internal.Subscriber;
import java.util.EnumSet;
import java.util.List;
import redis.clients.jedis.UnifiedJedis;

/**
 * What {@link RedLocks} and {@link MultiLocks} share: the nodes, the parallel fan-out, one
 * watchdog and one subscriber (a connection per node) for all the client's locks. They differ
 * only in how many nodes must agree.
 */
abstract class QuorumLocks extends AbstractLocks {

    private final int quorum;
    private final FanOut fanOut;
    private final Watchdog watchdog;
    private final Subscriber subscriber;

    QuorumLocks(List<UnifiedJedis> nodes, LockOptions options, int quorum) {
        super(nodes, options, EnumSet.of(Guarantee.LIVENESS_AFTER_CRASH, Guarantee.OWNER_ONLY_RELEASE,
                Guarantee.REENTRANT, Guarantee.LEASE_RENEWAL, Guarantee.LEASE_LOSS_SIGNAL, Guarantee.RETRY_SAFE,
                Guarantee.EFFICIENT_WAIT, Guarantee.WAKE_AFTER_RECONNECT, Guarantee.FAILOVER_SAFE));
        String id = clientId().substring(0, 8);
        this.quorum = quorum;
        this.fanOut = new FanOut(nodes(), options.nodeTimeout(), "lockstep-fanout-" + id);
        this.watchdog = new Watchdog(id, options.observer());
        this.subscriber = new Subscriber(nodes(), "lockstep-subscriber-" + id, options.spinInterval(), options.observer());
    }

    @Override
    protected final DistLock newLock(String name) {
        return new QuorumLock(name, this);
    }

    /** How many nodes must agree for an acquisition or a renewal to count. */
    final int quorum() {
        return quorum;
    }

    final FanOut fanOut() {
        return fanOut;
    }

    final Watchdog watchdog() {
        return watchdog;
    }

    final Subscriber subscriber() {
        return subscriber;
    }

    /** Stops renewals, waiting and the fan-out threads; held locks run out as after a crash. */
    @Override
    public final void close() {
        super.close();
        watchdog.close();
        subscriber.close();
        fanOut.close();
    }
}
