package dev.lockstep.v6;

import dev.lockstep.LockOptions;
import java.util.List;
import java.util.Objects;
import redis.clients.jedis.UnifiedJedis;

/**
 * Redisson's MultiLock on the same fan-out: the lock is held only when every one of the N nodes
 * granted it. Stricter than {@link RedLocks}, and unavailable while any node is down.
 */
public final class MultiLocks extends QuorumLocks {

    /** A client that must lock all of {@code nodes}; {@code RedisClient}s serve best, as for {@link RedLocks}. */
    public MultiLocks(List<UnifiedJedis> nodes, LockOptions options) {
        super(nodes, options, Objects.requireNonNull(nodes, "nodes must not be null").size());
    }
}
