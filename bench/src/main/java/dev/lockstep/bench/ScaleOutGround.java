package dev.lockstep.bench;

import dev.lockstep.LockOptions;
import dev.lockstep.testkit.fixture.RedisClusterFixture;
import dev.lockstep.v5.PubSubLocks;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.Lock;
import java.util.function.IntConsumer;
import java.util.stream.IntStream;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.Blackhole;
import org.redisson.api.RedissonClient;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.Connection;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.RedisClusterClient;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.util.JedisClusterCRC16;

/**
 * The ground of {@link ScaleOut}: one Redis master or the masters of a Redis Cluster, two client
 * identities of the contender on it (A and B, as two application instances), and {@value #NAMES}
 * lock names. Over each iteration it counts the operations and reads, from each master's
 * {@code INFO}, what that master did, for {@link ScaleOutWork}.
 */
@State(Scope.Benchmark)
public class ScaleOutGround {

    /** Independent lock names the threads pick from, one at random per operation. */
    static final int NAMES = 1000;

    /** Where the locks live. */
    public enum Ground {
        /** One Redis server, as most users start. */
        ONE_MASTER(1),
        /** A Redis Cluster of three masters (no replicas), the names spread over its slots. */
        CLUSTER(3);

        private final int masters;

        Ground(int masters) {
            this.masters = masters;
        }

        /** How many masters serve the names. */
        public int masters() {
            return masters;
        }

        /** The name charts and tables use. */
        public String label() {
            return masters == 1 ? "one master" : masters + "-master Cluster";
        }

        RedisServers start() {
            return masters == 1 ? RedisServers.use(1) : RedisServers.cluster(masters);
        }

        UnifiedJedis jedis(RedisServers servers) {
            return masters == 1 ? LockClient.jedis(servers.address(0)) : LockClient.jedisCluster(servers.addresses());
        }

        /** A connection of {@code redis}'s pools to the master that serves {@code slot}; closing it gives it back. */
        Connection connection(UnifiedJedis redis, int slot) {
            return masters == 1 ? ((RedisClient) redis).getPool().getResource()
                    : ((RedisClusterClient) redis).getConnectionFromSlot(slot);
        }

        RedissonClient redisson(RedisServers servers) {
            return masters == 1 ? LockClient.redissonClient(servers.address(0)) : LockClient.redissonCluster(servers.addresses());
        }
    }

    /** What each operation does: a lock taken and released, or one request of a floor to the name's master. */
    public enum Contender {
        /** The floor: one PING, sent where the name's lock would live, and nothing else. */
        PING_FLOOR("PING (floor)"),
        /**
         * One PUBLISH on the name's release channel, as an unlock sends inside its script, with no one
         * listening: on a Cluster the other masters receive it too, so this is what a relay costs.
         */
        PUBLISH_FLOOR("PUBLISH (floor)"),
        /** Stage 5, {@code dev.lockstep.v5.PubSubLocks}, over a pooled Jedis client of the ground. */
        V5_PUBSUB_RETRY("v5-pubsub-retry"),
        /** Redisson's {@code RLock}, with Redisson's defaults for one server or a Cluster. */
        REDISSON_LOCK("Redisson RLock");

        private final String label;

        Contender(String label) {
            this.label = label;
        }

        /** The name charts and tables use. */
        public String label() {
            return label;
        }
    }

    /** One client identity: what an operation on name {@code i} does, and how the client is closed. */
    private record Side(IntConsumer once, AutoCloseable closer) {
    }

    /** One master or a Cluster; both when not narrowed with {@code -p ground=...}. */
    @Param
    public Ground ground;

    /** The contender under test; every one when not narrowed with {@code -p contender=...}. */
    @Param
    public Contender contender;

    /** Fresh per trial, so a run against given servers never meets an earlier run's locks. */
    private final String trial = UUID.randomUUID().toString().substring(0, 8);
    private final LongAdder operations = new LongAdder();
    private RedisServers servers;
    private Side[] sides;
    private List<ServerWork> workBefore;
    private long operationsBefore;
    private volatile List<ServerWork> iterationWork = List.of();
    private volatile long iterationOperations;

    /** Starts the servers and opens the two clients, every lock of each looked up once. */
    @Setup(Level.Trial)
    public void start() {
        servers = ground.start();
        List<String> names = IntStream.range(0, NAMES).mapToObj(i -> "scale-out-" + i + "-" + trial).toList();
        LoggerFactory.getLogger(ScaleOutGround.class).info("{} on {}, {} names{}", contender.label(),
                servers.description(), NAMES, ground == Ground.CLUSTER ? " by master " + namesByMaster(names) : "");
        sides = new Side[] {open(names), open(names)};
    }

    private Side open(List<String> names) {
        switch (contender) {
            case PING_FLOOR, PUBLISH_FLOOR -> {
                UnifiedJedis redis = ground.jedis(servers);
                int[] slots = names.stream().mapToInt(JedisClusterCRC16::getSlot).toArray();
                // Stage 5's and Redisson's release channel of the name, which hashes to the name's slot.
                List<CommandArguments> publishes = names.stream().map(name -> new CommandArguments(Protocol.Command.PUBLISH)
                        .add("redisson_lock__channel:{" + name + "}").add("0")).toList();
                // A pooled connection to the name's master, as a keyed command borrows one: Jedis 8's own
                // PING, even with a sample key, goes to every master of a Cluster.
                return new Side(i -> {
                    try (Connection connection = ground.connection(redis, slots[i])) {
                        if (contender == Contender.PING_FLOOR) {
                            connection.ping();
                        } else {
                            connection.executeCommand(publishes.get(i));
                        }
                    }
                }, redis);
            }
            case V5_PUBSUB_RETRY -> {
                UnifiedJedis redis = ground.jedis(servers);
                PubSubLocks locks = new PubSubLocks(redis, LockOptions.defaults());
                Lock[] held = names.stream().map(locks::get).toArray(Lock[]::new);
                return new Side(i -> acquireHoldRelease(held[i]), () -> {
                    locks.close();
                    redis.close();
                });
            }
            default -> {
                RedissonClient redisson = ground.redisson(servers);
                Lock[] held = names.stream().map(redisson::getLock).toArray(Lock[]::new);
                // No quiet period: nothing is in flight once a trial is over, and the default 2 s would be paid per fork.
                return new Side(i -> acquireHoldRelease(held[i]), () -> redisson.shutdown(0, 5, TimeUnit.SECONDS));
            }
        }
    }

    private static void acquireHoldRelease(Lock lock) {
        lock.lock();
        try {
            Blackhole.consumeCPU(ContendedThroughput.HOLD_TOKENS);
        } finally {
            lock.unlock();
        }
    }

    /** How many of {@code names} each master serves, for the log: the split the hash slots make. */
    private Map<String, Long> namesByMaster(List<String> names) {
        RedisClusterFixture cluster = servers.clusterFixture();
        Map<String, Long> counts = new TreeMap<>();
        names.forEach(name -> counts.merge(cluster.masterOfKey(name).label(), 1L, Long::sum));
        return counts;
    }

    /** One operation on name {@code name} by client A ({@code client} 0) or B (1), counted once it is done. */
    void once(int client, int name) {
        sides[client].once().accept(name);
        operations.increment();
    }

    /** JMH runs this before any thread starts the iteration and {@link #stopCounting} after all have finished it. */
    @Setup(Level.Iteration)
    public void startCounting() {
        workBefore = servers.workByServer();
        operationsBefore = operations.sum();
    }

    /** What each master did since {@link #startCounting}, and the operations of the same window. */
    @TearDown(Level.Iteration)
    public void stopCounting() {
        List<ServerWork> after = servers.workByServer();
        iterationOperations = operations.sum() - operationsBefore;
        iterationWork = IntStream.range(0, after.size()).mapToObj(i -> after.get(i).minus(workBefore.get(i))).toList();
    }

    /** Stops the clients first (their threads and connections), then the servers: nothing outlives the trial. */
    @TearDown(Level.Trial)
    public void stop() throws Exception {
        try (RedisServers closing = servers) {
            for (Side side : sides) {
                side.closer().close();
            }
        }
    }

    /** Operations in the last iteration, by all threads: locks taken, or PINGs answered. */
    long iterationOperations() {
        return iterationOperations;
    }

    /** What every master did in the last iteration, summed. */
    ServerWork iterationWork() {
        return iterationWork.stream().reduce(ServerWork.NONE, ServerWork::plus);
    }

    /** What master {@code index} did in the last iteration, or nothing when the ground has fewer masters. */
    ServerWork iterationWork(int index) {
        List<ServerWork> work = iterationWork;
        return index < work.size() ? work.get(index) : ServerWork.NONE;
    }
}
