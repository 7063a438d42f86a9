package dev.lockstep.testkit.interop;

import dev.lockstep.testkit.client.LockThread;
import dev.lockstep.testkit.client.Threads;
import dev.lockstep.testkit.fixture.Await;
import java.util.Collection;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;
import org.redisson.config.ReadMode;
import org.redisson.config.ShardedSubscriptionMode;
import redis.clients.jedis.HostAndPort;

/**
 * Redisson clients for the interop tests, with small pools (fewer connections to open, fewer
 * threads to stop). Needs Redisson on the test class path (testkit declares it optional).
 */
public final class RedissonClients {

    private RedissonClients() {
    }

    /** A Redisson client of the single server at {@code address}. */
    public static RedissonClient single(HostAndPort address) {
        Config config = new Config();
        config.useSingleServer()
                .setAddress(url(address))
                .setConnectionPoolSize(4)
                .setConnectionMinimumIdleSize(1)
                .setSubscriptionConnectionPoolSize(2)
                .setSubscriptionConnectionMinimumIdleSize(1);
        return Redisson.create(config);
    }

    /**
     * A Redisson client of the Redis Cluster seeded with {@code nodes}. Sharded pub/sub is off: on
     * Redis 7 Redisson would otherwise announce releases with SPUBLISH, which a plain SUBSCRIBE
     * (Lockstep's, and any Redisson 3 client's) never hears.
     */
    public static RedissonClient cluster(Collection<HostAndPort> nodes) {
        Config config = new Config();
        var cluster = config.useClusterServers()
                .setReadMode(ReadMode.MASTER)
                .setShardedSubscriptionMode(ShardedSubscriptionMode.OFF)
                .setMasterConnectionPoolSize(4)
                .setMasterConnectionMinimumIdleSize(1)
                .setSubscriptionConnectionPoolSize(2)
                .setSubscriptionConnectionMinimumIdleSize(1);
        nodes.forEach(node -> cluster.addNodeAddress(url(node)));
        return Redisson.create(config);
    }

    /** Waits until every Redisson client's threads are gone, after their shutdown: later test classes share the JVM. */
    public static void awaitAllShutDown() {
        Await.until("Redisson's threads end after its shutdown", LockThread.DEADLINE,
                () -> Threads.named("redisson-").isEmpty());
    }

    private static String url(HostAndPort address) {
        return "redis://" + address.getHost() + ":" + address.getPort();
    }
}
