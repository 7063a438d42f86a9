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
 * {@code new XLocks(List<UnifiedJedis>, LockOptions)} over {@link #QUORUM_NODES} masters; a child
 * JVM can build either from the class name.
 *
 * @param name       the module, e.g. {@code v1-setnx}
 * @param locksClass the entry point, e.g. {@code dev.lockstep.v1.SetnxLocks}
 */
public record Stage(String name, Class<? extends Locks> locksClass) {

    /**
     * The prefix of stage 7's token counters: the only keys kept without a TTL, on purpose (a
     * counter that expired would start again below tokens already handed out), and bounded in
     * number (one per Cluster slot).
     */
    public static final String TOKEN_COUNTERS = "lockstep_fence:";

    /** How many independent masters a quorum stage runs on in the scenarios. */
    public static final int QUORUM_NODES = 5;

    /**
     * Options whose default lease is {@code lease} in every stage: the fixed lease before the
     * watchdog, the watchdog timeout from v4 on. A scenario then reads the same on every stage.
     */
    public static LockOptions leaseOptions(Duration lease) {
        return LockOptions.defaults().withLease(lease).withWatchdogTimeout(lease);
    }

    /** Whether the stage spans several independent masters. */
    public boolean multiNode() {
        return multiNode(locksClass);
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
        try {
            return kind.isAssignableFrom(locksClass.getMethod("get", String.class).getReturnType());
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException(locksClass.getName() + " has no get(String)", e);
        }
    }

    /** How many Redis nodes one client of this stage talks to. */
    public int nodeCount() {
        return multiNode() ? QUORUM_NODES : 1;
    }

    /**
     * The guarantees the stage claims, asked of a real client object. Building one does no I/O
     * (connections open on first use), so it needs no running Redis.
     */
    public Set<Guarantee> claims() {
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

    /** A client of stage class {@code locksClass} over {@code nodes}. */
    public static Locks open(Class<? extends Locks> locksClass, List<? extends UnifiedJedis> nodes, LockOptions options) {
        try {
            if (multiNode(locksClass)) {
                return locksClass.getConstructor(List.class, LockOptions.class).newInstance(nodes, options);
            }
            if (nodes.size() != 1) {
                throw new IllegalArgumentException(locksClass.getSimpleName() + " runs on one node, not " + nodes.size());
            }
            return locksClass.getConstructor(UnifiedJedis.class, LockOptions.class).newInstance(nodes.get(0), options);
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            throw new IllegalStateException("cannot construct " + locksClass.getName(), e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(locksClass.getName()
                    + " needs a public constructor (UnifiedJedis, LockOptions) or (List<UnifiedJedis>, LockOptions)", e);
        }
    }

    private static boolean multiNode(Class<? extends Locks> locksClass) {
        for (Constructor<?> constructor : locksClass.getConstructors()) {
            if (constructor.getParameterCount() == 2 && constructor.getParameterTypes()[0] == List.class) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String toString() {
        return name;
    }
}
