package dev.lockstep.bench;

import dev.lockstep.LockOptions;
import dev.lockstep.v6.MultiLocks;
import dev.lockstep.v6.RedLocks;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import org.redisson.RedissonMultiLock;
import org.redisson.RedissonRedLock;
import redis.clients.jedis.HostAndPort;

/** What the v6 benchmark sweeps: Lockstep's quorum locks, and Redisson's locks over several independent masters. */
public enum QuorumContender {
    V6_REDLOCK("v6 RedLock", false, nodes -> LockClient.lockstep(nodes, RedLocks::new)),
    V6_MULTILOCK("v6 MultiLock", true, nodes -> LockClient.lockstep(nodes, MultiLocks::new)),
    // Deprecated by Redisson in favour of a single master's RLock, and still the baseline RedLock users compare against.
    @SuppressWarnings("deprecation")
    REDISSON_REDLOCK("Redisson RedLock", false,
            nodes -> LockClient.redisson(nodes, nodeTimeout(), RedissonRedLock::new)),
    REDISSON_MULTILOCK("Redisson MultiLock", true,
            nodes -> LockClient.redisson(nodes, nodeTimeout(), RedissonMultiLock::new));

    private final String label;
    private final boolean needsEveryNode;
    private final Function<List<HostAndPort>, LockClient> client;

    QuorumContender(String label, boolean needsEveryNode, Function<List<HostAndPort>, LockClient> client) {
        this.label = label;
        this.needsEveryNode = needsEveryNode;
        this.client = client;
    }

    /** The name charts and tables use. */
    public String label() {
        return label;
    }

    /** Whether every node must grant the lock (MultiLock), so that one stalled node makes it unavailable. */
    boolean needsEveryNode() {
        return needsEveryNode;
    }

    /** A new client identity of this contender over the independent masters at {@code nodes}. */
    LockClient open(List<HostAndPort> nodes) {
        return client.apply(nodes);
    }

    /** How long Lockstep's v6 lets one node take by default; Redisson's clients get the same. */
    private static Duration nodeTimeout() {
        return LockOptions.defaults().nodeTimeout();
    }
}
