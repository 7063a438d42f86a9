package dev.lockstep.testkit.interop;

import dev.lockstep.LockOptions;
import dev.lockstep.Locks;
import dev.lockstep.testkit.fixture.RedisClusterFixture;
import dev.lockstep.testkit.fixture.RedisFixture;
import dev.lockstep.testkit.fixture.RedisNode;
import dev.lockstep.testkit.stage.Stage;
import dev.lockstep.testkit.watch.Stalls;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.redisson.api.RedissonClient;
import redis.clients.jedis.UnifiedJedis;

/**
 * Where a stage and Redisson meet: one server or a three-master Cluster, with a Jedis client, a
 * Redisson client and a client of the stage on it. The interop tests of the stages and of the
 * lock family play their stories on one of each.
 */
public final class InteropGround implements AutoCloseable {

    private final UnifiedJedis redis;
    private final RedissonClient redisson;
    private final Locks locks;
    private final List<RedisNode> nodes;
    private final List<AutoCloseable> closers;

    private InteropGround(UnifiedJedis redis, RedissonClient redisson, Locks locks, List<RedisNode> nodes,
                          List<AutoCloseable> closers) {
        this.redis = redis;
        this.redisson = redisson;
        this.locks = locks;
        this.nodes = nodes;
        this.closers = closers;
        // Its stories bound wake-ups net of the JVM's stalls: the probe measures from the start.
        Stalls.watch();
    }

    /** One fresh server with the three clients; the stage's client gets {@code options}. */
    public static InteropGround server(Stage stage, LockOptions options) {
        RedisFixture fixture = RedisFixture.processes();
        RedisNode node;
        try {
            node = fixture.start();
        } catch (RuntimeException e) {
            fixture.close();
            throw e;
        }
        return start(stage, options, fixture, List.of(node), node::newClient, () -> RedissonClients.single(node.address()));
    }

    /** A fresh three-master Cluster with the three clients; the stage's client gets {@code options}. */
    public static InteropGround cluster(Stage stage, LockOptions options) {
        RedisClusterFixture cluster = RedisClusterFixture.start(3);
        return start(stage, options, cluster, cluster.masters(), cluster::newClient,
                () -> RedissonClients.cluster(cluster.addresses()));
    }

    /** The clients and the stage's {@link Locks} on {@code servers}; everything is closed again if one fails. */
    private static InteropGround start(Stage stage, LockOptions options, AutoCloseable servers, List<RedisNode> nodes,
                                       Supplier<UnifiedJedis> jedis, Supplier<RedissonClient> redissonClient) {
        List<AutoCloseable> closers = new ArrayList<>(List.of(servers));
        try {
            UnifiedJedis redis = jedis.get();
            closers.add(redis);
            RedissonClient redisson = redissonClient.get();
            closers.add(redisson::shutdown);
            Locks locks = stage.open(redis, options);
            closers.add(locks);
            return new InteropGround(redis, redisson, locks, nodes, closers);
        } catch (RuntimeException e) {
            new InteropGround(null, null, null, List.of(), closers).close();
            throw e;
        }
    }

    /** A Jedis client of the servers, for looking at keys. */
    public UnifiedJedis redis() {
        return redis;
    }

    /** The Redisson client. */
    public RedissonClient redisson() {
        return redisson;
    }

    /** The stage's client. */
    public Locks locks() {
        return locks;
    }

    /** The servers (the masters of a Cluster), for counting traffic and subscribers. */
    public List<RedisNode> nodes() {
        return nodes;
    }

    /** Closes the stage's client, then Redisson, then Jedis, then stops the servers. */
    @Override
    public void close() {
        for (int i = closers.size() - 1; i >= 0; i--) {
            try {
                closers.get(i).close();
            } catch (Exception e) {
                // Keep closing the rest: one stuck client must not leave servers running.
            }
        }
    }
}
