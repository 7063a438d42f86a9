package dev.lockstep.testkit.interop;

import dev.lockstep.testkit.fixture.RedisFixture;
import dev.lockstep.testkit.fixture.RedisNode;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;
import redis.clients.jedis.RedisClient;

/**
 * One real Redis with a Jedis client and a Redisson client on it: the ground for the interop
 * tests of the stages that keep Redisson's data layout. Closing waits until Redisson's threads
 * are gone, because later test classes share the JVM.
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
            redisson = RedissonClients.single(node.address());
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

    /** Redisson's lock {@code name}: the same lock as Lockstep's {@code get(name)} from stage 3 on. */
    public RLock redissonLock(String name) {
        return redisson.getLock(name);
    }

    /** Shuts Redisson down and waits until its threads are gone, then closes the Jedis client and stops the node. */
    @Override
    public void close() {
        try {
            redisson.shutdown();
            RedissonClients.awaitAllShutDown();
        } finally {
            redis.close();
            fixture.close();
        }
    }
}
