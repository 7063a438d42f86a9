package dev.lockstep.testkit;

import org.redisson.Redisson;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.RedisClient;

/**
 * One real Redis with a Jedis client and a Redisson client on it: the ground for the interop
 * tests of the stages that keep Redisson's data layout. Needs Redisson on the test class path
 * (testkit declares it optional). Closing waits until Redisson's threads are gone, because
 * later test classes share the JVM.
 */
public final class InteropNode implements AutoCloseable {

    private final RedisFixture fixture;
    private final RedisNode node;
    private final RedisClient redis;
    private final RedissonClient redisson;

    /** Starts the node and connects both clients. */
    public InteropNode() {
        fixture = RedisFixture.processes();
        node = fixture.start();
        redis = node.newClient();
        try {
            redisson = connect(node.address());
        } catch (RuntimeException e) {
            redis.close();
            fixture.close();
            throw e;
        }
    }

    /** The node. */
    public RedisNode node() {
        return node;
    }

    /** A pooled Jedis client of the node, for the Lockstep side and for looking at keys. */
    public RedisClient redis() {
        return redis;
    }

    /** The Redisson client of the node. */
    public RedissonClient redisson() {
        return redisson;
    }

    /** Redisson's lock for Lockstep's lock {@code name}, whose key is {@code {name}}: Redisson keys a lock by its name. */
    public RLock redissonLock(String name) {
        return redisson.getLock("{" + name + "}");
    }

    /** Shuts Redisson down and waits until its threads are gone, then closes the Jedis client and stops the node. */
    @Override
    public void close() {
        try {
            redisson.shutdown();
            Await.until("Redisson's threads end after its shutdown", LockThread.DEADLINE,
                    () -> Threads.named("redisson-").isEmpty());
        } finally {
            redis.close();
            fixture.close();
        }
    }

    private static RedissonClient connect(HostAndPort address) {
        Config config = new Config();
        // Small pools: fewer connections to open, fewer threads to stop at shutdown.
        config.useSingleServer()
                .setAddress("redis://" + address.getHost() + ":" + address.getPort())
                .setConnectionPoolSize(4)
                .setConnectionMinimumIdleSize(1)
                .setSubscriptionConnectionPoolSize(2)
                .setSubscriptionConnectionMinimumIdleSize(1);
        return Redisson.create(config);
    }
}
