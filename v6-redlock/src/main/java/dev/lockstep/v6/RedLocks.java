package dev.lockstep.v6;

import dev.lockstep.LockOptions;
import java.util.List;
import java.util.Objects;
import redis.clients.jedis.UnifiedJedis;

/**
 * Stage 6: RedLock. The lock lives on N independent masters (no replication between them) and
 * is held when a majority, N/2+1, granted it within the lease: losing a minority of masters, or
 * one master's data, cannot hand the lock to a second client. See {@link QuorumLock}.
 */
public final class RedLocks extends QuorumLocks {

    /** A client of the stage-6 lock over the independent masters {@code nodes}; {@code RedisClient}s serve best. */
    public RedLocks(List<UnifiedJedis> nodes, LockOptions options) {
        super(nodes, options, Objects.requireNonNull(nodes, "nodes must not be null").size() / 2 + 1);
    }
}
