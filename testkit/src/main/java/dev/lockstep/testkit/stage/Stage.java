package dev.lockstep.testkit.stage;

import dev.lockstep.DistLock;
import dev.lockstep.FencedLock;
import dev.lockstep.Guarantee;
import dev.lockstep.LockOptions;
import dev.lockstep.Locks;
import dev.lockstep.ReadWriteDistLock;
import dev.lockstep.testkit.fixture.RedisNode;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.UnifiedJedis;

/**
 * A stage under test: its module name and its {@link Locks} class. Single-node stages are
 * constructed as {@code new XLocks(UnifiedJedis, LockOptions)}, quorum stages as
 * {@code new XLocks(List<UnifiedJedis>, LockOptions)} over {@link #QUORUM_NODES} masters, and the
 * ZooKeeper lock as {@code new XLocks(String connectString, LockOptions)}; a child JVM can build
 * each from the class name. The optimistic update has no lock at all: no class.
 *
 * @param name       the module, e.g. {@code v1-setnx}
 * @param locksClass the entry point, e.g. {@code dev.lockstep.v1.SetnxLocks}; null for no lock
 */
public record Stage(String name, Class<? extends Locks> locksClass) {

    /** Where a stage keeps its locks. */
    public enum Ground {
        /** One Redis master (and, in the failover stories, its replica). */
        REDIS,
        /** {@link #QUORUM_NODES} independent Redis masters. */
        REDIS_MASTERS,
        /** A ZooKeeper ensemble. */
        ZOOKEEPER,
        /** Nowhere: no lock, a version column checked on write. */
        NONE
    }

    /** What the optimistic update promises: no write computed from a stale read goes in. */
    private static final Set<Guarantee> LOCK_FREE_CLAIMS = Set.of(Guarantee.FENCED);

    /** The contender with no lock at all, called {@code name}: every write checks the row's version. */
    public static Stage lockFree(String name) {
        return new Stage(name, null);
    }

    /**
     * The prefix of stage 7's token counters: the only keys kept without a TTL, on purpose (a
     * counter that expired would start again below tokens already handed out), and bounded in
     * number (one per Cluster slot).
     */
    public static final String TOKEN_COUNTERS = "lockstep_fence:";

    /** How many independent masters a quorum stage runs on in the scenarios. */
    public static final int QUORUM_NODES = 5;

    /**
     * How long one of a quorum stage's nodes may take to answer in a scenario. The suite runs its
     * tests side by side, and on a 2-core machine that now and then stalls a Redis process past the
     * 100 ms default: a story about locks must not turn on one slow node.
     */
    private static final Duration SCENARIO_NODE_TIMEOUT = Duration.ofMillis(500);

    /** The options every scenario starts from: the defaults, with a node timeout a busy machine's stalls stay under. */
    public static LockOptions scenarioOptions() {
        return LockOptions.defaults().withNodeTimeout(SCENARIO_NODE_TIMEOUT);
    }

    /**
     * {@link #scenarioOptions()} whose default lease is {@code lease} in every stage: the fixed lease
     * before the watchdog, the watchdog timeout from v4 on. A scenario then reads the same on every stage.
     */
    public static LockOptions leaseOptions(Duration lease) {
        return scenarioOptions().withLease(lease).withWatchdogTimeout(lease);
    }

    /** Where the stage keeps its locks. */
    public Ground ground() {
        return locksClass == null ? Ground.NONE : groundOf(locksClass);
    }

    /** Whether the stage is an alternative to a Redis lock, played only in the stories that compare them. */
    public boolean alternative() {
        return ground() == Ground.ZOOKEEPER || ground() == Ground.NONE;
    }

    /** Whether the stage spans several independent masters. */
    public boolean multiNode() {
        return ground() == Ground.REDIS_MASTERS;
    }

    /** Whether the stage's locks carry fencing tokens: its {@code get} returns a {@link FencedLock}. */
    public boolean fenced() {
        return hands(FencedLock.class);
    }

    /** Whether the stage's locks have a read side: its {@code get} returns a {@link ReadWriteDistLock}. */
    public boolean readWrite() {
        return hands(ReadWriteDistLock.class);
    }

    /** Whether the stage's {@code get} declares that it returns a {@code kind}. */
    private boolean hands(Class<? extends DistLock> kind) {
        if (locksClass == null) {
            return false;
        }
        try {
            return kind.isAssignableFrom(locksClass.getMethod("get", String.class).getReturnType());
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException(locksClass.getName() + " has no get(String)", e);
        }
    }

    /** How many Redis nodes one client of this stage talks to. */
    public int nodeCount() {
        return switch (ground()) {
            case REDIS -> 1;
            case REDIS_MASTERS -> QUORUM_NODES;
            case ZOOKEEPER, NONE -> 0;
        };
    }

    /**
     * The guarantees the stage claims, asked of a real client object. Building one does no I/O
     * (connections open on first use, or in the background), so it needs no running server.
     */
    public Set<Guarantee> claims() {
        if (ground() == Ground.NONE) {
            return LOCK_FREE_CLAIMS;
        }
        if (ground() == Ground.ZOOKEEPER) {
            try (Locks locks = open("127.0.0.1:1", LockOptions.defaults())) {
                return locks.guarantees();
            }
        }
        List<RedisClient> nowhere = new ArrayList<>();
        for (int i = 0; i < nodeCount(); i++) {
            nowhere.add(RedisNode.newClient(new HostAndPort("127.0.0.1", 1)));
        }
        try (Locks locks = open(nowhere, LockOptions.defaults())) {
            return locks.guarantees();
        } finally {
            nowhere.forEach(RedisClient::close);
        }
    }

    /** A client of this stage over {@code nodes} ({@link #nodeCount()} of them). */
    public Locks open(List<? extends UnifiedJedis> nodes, LockOptions options) {
        return open(locksClass, nodes, options);
    }

    /** A client of a single-node stage over {@code redis}. */
    public Locks open(UnifiedJedis redis, LockOptions options) {
        return open(locksClass, Collections.singletonList(redis), options);
    }

    /** A client of a ZooKeeper stage on the ensemble at {@code connectString}. */
    public Locks open(String connectString, LockOptions options) {
        return open(locksClass, connectString, options);
    }

    /** A client of ZooKeeper stage class {@code locksClass} on the ensemble at {@code connectString}. */
    public static Locks open(Class<? extends Locks> locksClass, String connectString, LockOptions options) {
        return construct(locksClass, String.class, connectString, options);
    }

    /** A client of stage class {@code locksClass} over {@code nodes}. */
    public static Locks open(Class<? extends Locks> locksClass, List<? extends UnifiedJedis> nodes, LockOptions options) {
        if (multiNode(locksClass)) {
            return construct(locksClass, List.class, nodes, options);
        }
        if (nodes.size() != 1) {
            throw new IllegalArgumentException(locksClass.getSimpleName() + " runs on one node, not " + nodes.size());
        }
        return construct(locksClass, UnifiedJedis.class, nodes.get(0), options);
    }

    /** {@code new locksClass(ground, options)}, through its public constructor taking a {@code groundType} first. */
    private static Locks construct(Class<? extends Locks> locksClass, Class<?> groundType, Object ground,
                                   LockOptions options) {
        try {
            return locksClass.getConstructor(groundType, LockOptions.class).newInstance(ground, options);
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            throw new IllegalStateException("cannot construct " + locksClass.getName(), e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(locksClass.getName() + " needs a public constructor ("
                    + groundType.getSimpleName() + ", LockOptions)", e);
        }
    }

    private static boolean multiNode(Class<? extends Locks> locksClass) {
        return groundOf(locksClass) == Ground.REDIS_MASTERS;
    }

    /** The ground a stage class's public two-argument constructor asks for. */
    private static Ground groundOf(Class<? extends Locks> locksClass) {
        for (Constructor<?> constructor : locksClass.getConstructors()) {
            if (constructor.getParameterCount() == 2 && constructor.getParameterTypes()[0] == List.class) {
                return Ground.REDIS_MASTERS;
            }
            if (constructor.getParameterCount() == 2 && constructor.getParameterTypes()[0] == String.class) {
                return Ground.ZOOKEEPER;
            }
        }
        return Ground.REDIS;
    }

    @Override
    public String toString() {
        return name;
    }
}
