package dev.lockstep.testkit;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.RedisSentinelClient;

/**
 * A master, one replica and N Sentinels watching them, all real {@code redis-server} processes
 * (a Sentinel is the same binary started with {@code --sentinel} and a config file it may
 * rewrite). Timing is short so a failover takes seconds: a master is subjectively down after
 * {@code downAfter} of silence, and a failed failover attempt is retried after twice
 * {@code failoverTimeout}.
 *
 * <p>Ready once the replica is in sync and every Sentinel sees the master, the replica and all
 * the other Sentinels (so a quorum can form the moment the master dies). {@link #close()} stops
 * every process; each has {@link ProcessRedisNode}'s shutdown hook and parent-death watchdog.
 */
public final class SentinelFixture implements AutoCloseable {

    /** The name the Sentinels monitor the master under. */
    public static final String MASTER_NAME = "lockstep";

    private static final Logger log = LoggerFactory.getLogger(SentinelFixture.class);
    private static final Duration READY = Duration.ofSeconds(20);

    private final RedisFixture processes = RedisFixture.processes();
    private final List<RedisNode> sentinels = new ArrayList<>();
    private RedisNode master;
    private RedisNode replica;

    private SentinelFixture() {
    }

    /**
     * Starts a master, a replica of it and {@code sentinelCount} Sentinels with {@code quorum}.
     *
     * @param downAfter       {@code down-after-milliseconds}: silence before a Sentinel thinks the master is down
     * @param failoverTimeout {@code failover-timeout}: bounds one failover attempt and the wait before the next
     */
    public static SentinelFixture start(int sentinelCount, int quorum, Duration downAfter, Duration failoverTimeout) {
        if (sentinelCount < 1 || quorum < 1 || quorum > sentinelCount) {
            throw new IllegalArgumentException("need 1 <= quorum <= sentinels, got quorum " + quorum
                    + " of " + sentinelCount);
        }
        SentinelFixture fixture = new SentinelFixture();
        try {
            fixture.build(sentinelCount, quorum, downAfter, failoverTimeout);
            return fixture;
        } catch (RuntimeException | Error e) {
            fixture.close();
            throw e;
        }
    }

    private void build(int sentinelCount, int quorum, Duration downAfter, Duration failoverTimeout) {
        long started = System.nanoTime();
        master = processes.start();
        replica = processes.start();
        try (Jedis admin = replica.admin()) {
            // Directly, not through a FaultyLink: Sentinel must see the replica under its real address.
            admin.replicaof(master.address().getHost(), master.address().getPort());
        }
        awaitCondition("replica " + replica.label() + " in sync with " + master.label(), this::replicaInSync);
        String config = String.join("\n",
                "sentinel monitor " + MASTER_NAME + " " + master.address().getHost() + " "
                        + master.address().getPort() + " " + quorum,
                "sentinel down-after-milliseconds " + MASTER_NAME + " " + downAfter.toMillis(),
                "sentinel failover-timeout " + MASTER_NAME + " " + failoverTimeout.toMillis(),
                "sentinel parallel-syncs " + MASTER_NAME + " 1",
                "");
        for (int i = 0; i < sentinelCount; i++) {
            sentinels.add(processes.start(NodeConfig.defaults().withConfigFile(config).withArgs("--sentinel")));
        }
        awaitCondition("every Sentinel sees the master, the replica and " + (sentinelCount - 1)
                + " other Sentinels", () -> sentinelsAgree(sentinelCount - 1));
        log.info("master {}, replica {}, Sentinels {} (quorum {}) ready in {} ms", master.label(), replica.label(),
                sentinelAddresses(), quorum, Duration.ofNanos(System.nanoTime() - started).toMillis());
    }

    private boolean replicaInSync() {
        try (Jedis admin = master.admin()) {
            String info = admin.info("replication");
            return info.contains("connected_slaves:1") && info.contains("port=" + replica.address().getPort() + ",state=online");
        }
    }

    private boolean sentinelsAgree(int others) {
        for (RedisNode sentinel : sentinels) {
            try (Jedis admin = sentinel.admin()) {
                Map<String, String> state = admin.sentinelMaster(MASTER_NAME);
                if (!"master".equals(state.get("flags"))
                        || !Integer.toString(others).equals(state.get("num-other-sentinels"))
                        || !"1".equals(state.get("num-slaves"))) {
                    return false;
                }
                List<Map<String, String>> replicas = admin.sentinelReplicas(MASTER_NAME);
                if (replicas.size() != 1 || !"slave".equals(replicas.get(0).get("flags"))) {
                    return false;
                }
            } catch (RuntimeException e) {
                return false;
            }
        }
        return true;
    }

    /** The node that was the master at start. */
    public RedisNode master() {
        return master;
    }

    /** The node that was the replica at start: the one a failover promotes. */
    public RedisNode replica() {
        return replica;
    }

    /** The Sentinel processes. */
    public List<RedisNode> sentinels() {
        return List.copyOf(sentinels);
    }

    /** Where clients ask for the master. */
    public Set<HostAndPort> sentinelAddresses() {
        Set<HostAndPort> addresses = new LinkedHashSet<>();
        sentinels.forEach(s -> addresses.add(s.address()));
        return addresses;
    }

    /**
     * The master as the Sentinels report it, once a majority of the reachable ones agree
     * ({@code SENTINEL GET-MASTER-ADDR-BY-NAME}), else null.
     */
    public HostAndPort reportedMaster() {
        List<HostAndPort> answers = new ArrayList<>();
        for (RedisNode sentinel : sentinels) {
            try (Jedis admin = sentinel.admin()) {
                List<String> address = admin.sentinelGetMasterAddrByName(MASTER_NAME);
                if (address != null && address.size() == 2) {
                    answers.add(new HostAndPort(address.get(0), Integer.parseInt(address.get(1))));
                }
            } catch (RuntimeException e) {
                // A Sentinel that does not answer has no vote.
            }
        }
        for (HostAndPort candidate : answers) {
            if (answers.stream().filter(candidate::equals).count() > sentinels.size() / 2) {
                return candidate;
            }
        }
        return null;
    }

    /**
     * A new client that finds the master through the Sentinels and follows {@code +switch-master},
     * with {@link RedisNode#CLIENT_TIMEOUT}; the caller closes it.
     */
    public RedisSentinelClient newClient() {
        int timeout = (int) RedisNode.CLIENT_TIMEOUT.toMillis();
        JedisClientConfig config = DefaultJedisClientConfig.builder()
                .connectionTimeoutMillis(timeout)
                .socketTimeoutMillis(timeout)
                .build();
        return RedisSentinelClient.builder()
                .masterName(MASTER_NAME)
                .sentinels(sentinelAddresses())
                .clientConfig(config)
                // The Sentinel connections are plain Jedis ones, which speak RESP2 only.
                .sentinelClientConfig(DefaultJedisClientConfig.builder()
                        .connectionTimeoutMillis(timeout)
                        .socketTimeoutMillis(timeout)
                        .serverDefaultProtocol()
                        .build())
                .build();
    }

    /** Stops every Sentinel, the replica and the master, and removes their files. */
    @Override
    public void close() {
        processes.close();
        sentinels.clear();
    }

    private static void awaitCondition(String what, java.util.function.BooleanSupplier condition) {
        long deadline = System.nanoTime() + READY.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(what + ": not within " + READY);
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting: " + what, e);
            }
        }
    }
}
