package dev.lockstep.testkit;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.RedisClusterClient;
import redis.clients.jedis.util.JedisClusterCRC16;

/**
 * A real Redis Cluster of {@code redis-server} processes: N masters, no replicas, the 16384 slots
 * split into N even ranges, built the way {@code redis-cli --cluster create} builds one (distinct
 * config epochs, {@code CLUSTER ADDSLOTS}, {@code CLUSTER MEET}), and ready only once every node
 * sees every node and reports {@code cluster_state:ok}.
 *
 * <p>{@link #close()} stops every node; each node has {@link ProcessRedisNode}'s shutdown hook
 * and parent-death watchdog, so none outlives the JVM either.
 */
public final class RedisClusterFixture implements AutoCloseable {

    /** The number of hash slots in a Redis Cluster. */
    public static final int SLOTS = 16384;

    private static final Logger log = LoggerFactory.getLogger(RedisClusterFixture.class);
    private static final Duration READY = Duration.ofSeconds(20);
    private static final int NODE_TIMEOUT_MILLIS = 2000;

    private final RedisFixture processes = RedisFixture.processes();
    private final List<RedisNode> masters = new ArrayList<>();
    /** First slot owned by master i; master i owns [firstSlot[i], firstSlot[i + 1]). */
    private final int[] firstSlot;

    private RedisClusterFixture(int masterCount) {
        this.firstSlot = IntStream.rangeClosed(0, masterCount).map(i -> i * SLOTS / masterCount).toArray();
    }

    /** Starts {@code masters} cluster nodes (at least 3, as Redis Cluster wants) and joins them into one cluster. */
    public static RedisClusterFixture start(int masters) {
        if (masters < 3) {
            throw new IllegalArgumentException("a Redis Cluster needs at least 3 masters, asked for " + masters);
        }
        RedisClusterFixture cluster = new RedisClusterFixture(masters);
        try {
            cluster.build(masters);
            return cluster;
        } catch (RuntimeException | Error e) {
            cluster.close();
            throw e;
        }
    }

    private void build(int count) {
        long started = System.nanoTime();
        NodeConfig config = NodeConfig.defaults().withCluster()
                .withArgs("--cluster-node-timeout", Integer.toString(NODE_TIMEOUT_MILLIS));
        for (int i = 0; i < count; i++) {
            masters.add(processes.start(config));
        }
        for (int i = 0; i < count; i++) {
            try (Jedis admin = masters.get(i).admin()) {
                // Distinct epochs up front, as redis-cli does, instead of waiting for collisions to resolve.
                admin.clusterSetConfigEpoch(i + 1);
                admin.clusterAddSlots(IntStream.range(firstSlot[i], firstSlot[i + 1]).toArray());
            }
        }
        HostAndPort first = masters.get(0).address();
        for (int i = 1; i < count; i++) {
            try (Jedis admin = masters.get(i).admin()) {
                admin.clusterMeet(first.getHost(), first.getPort());
            }
        }
        awaitReady();
        log.info("Redis Cluster of {} masters {} ready in {} ms", count, addresses(),
                Duration.ofNanos(System.nanoTime() - started).toMillis());
    }

    /** Every node knows every node, agrees all slots are served, and says the cluster is ok. */
    private void awaitReady() {
        long deadline = System.nanoTime() + READY.toNanos();
        while (!ready()) {
            if (System.nanoTime() > deadline) {
                StringBuilder state = new StringBuilder();
                for (RedisNode node : masters) {
                    try (Jedis admin = node.admin()) {
                        state.append('\n').append(node.label()).append(":\n").append(admin.clusterNodes());
                    } catch (RuntimeException e) {
                        state.append('\n').append(node.label()).append(": ").append(e);
                    }
                }
                throw new IllegalStateException("the cluster was not ready within " + READY + state);
            }
            sleep(Duration.ofMillis(50));
        }
    }

    private boolean ready() {
        for (RedisNode node : masters) {
            try (Jedis admin = node.admin()) {
                String info = admin.clusterInfo();
                if (!info.contains("cluster_state:ok")
                        || !info.contains("cluster_known_nodes:" + masters.size() + "\r")
                        || !info.contains("cluster_slots_ok:" + SLOTS + "\r")
                        || !info.contains("cluster_size:" + masters.size() + "\r")) {
                    return false;
                }
            } catch (RuntimeException e) {
                return false;
            }
        }
        return true;
    }

    /** The masters, in slot order: master i serves the i-th range of slots. */
    public List<RedisNode> masters() {
        return List.copyOf(masters);
    }

    /** Every node's address: the seeds for a cluster client. */
    public Set<HostAndPort> addresses() {
        Set<HostAndPort> addresses = new LinkedHashSet<>();
        masters.forEach(node -> addresses.add(node.address()));
        return addresses;
    }

    /** The hash slot of {@code key}, as the client computes it (a {@code {tag}} hashes only the tag). */
    public static int slot(String key) {
        return JedisClusterCRC16.getSlot(key);
    }

    /** The master that serves {@code slot}, by the ranges this fixture assigned. */
    public RedisNode masterOf(int slot) {
        if (slot < 0 || slot >= SLOTS) {
            throw new IllegalArgumentException("slot must be in [0, " + SLOTS + "), was " + slot);
        }
        for (int i = 0; i < masters.size(); i++) {
            if (slot < firstSlot[i + 1]) {
                return masters.get(i);
            }
        }
        throw new AssertionError("unreachable");
    }

    /** The master that serves {@code key}'s slot. */
    public RedisNode masterOfKey(String key) {
        return masterOf(slot(key));
    }

    /** A new cluster client seeded with every node, with {@link RedisNode#CLIENT_TIMEOUT}; the caller closes it. */
    public RedisClusterClient newClient() {
        int timeout = (int) RedisNode.CLIENT_TIMEOUT.toMillis();
        return RedisClusterClient.builder()
                .nodes(addresses())
                .clientConfig(DefaultJedisClientConfig.builder()
                        .connectionTimeoutMillis(timeout)
                        .socketTimeoutMillis(timeout)
                        .build())
                .build();
    }

    /** Stops every node and removes its files. */
    @Override
    public void close() {
        processes.close();
        masters.clear();
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the cluster", e);
        }
    }
}
