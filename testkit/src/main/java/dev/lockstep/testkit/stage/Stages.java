package dev.lockstep.testkit.stage;

import dev.lockstep.Locks;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every stage of the course, in course order (each fixes the failure its predecessor shows), then
 * the lock family, then the two alternatives beyond Redis: the one list the lab, the benchmarks and
 * the contract read. The stages' tests
 * depend on testkit, so testkit names their entry points rather than linking them, and loads a
 * stage's class when it is asked for.
 */
public final class Stages {

    /** Module name to entry point. */
    private static final Map<String, String> KNOWN = new LinkedHashMap<>();

    /** The contender with no lock: a version column checked on every write. */
    public static final String OPTIMISTIC_UPDATE = "optimistic-update";

    /** The alternatives' module names to entry points, beside the optimistic update, which has none. */
    private static final Map<String, String> BEYOND_REDIS = new LinkedHashMap<>();

    static {
        KNOWN.put("v1-setnx", "dev.lockstep.v1.SetnxLocks");
        KNOWN.put("v2-owner-check", "dev.lockstep.v2.OwnerCheckLocks");
        KNOWN.put("v3-reentrant-hash", "dev.lockstep.v3.ReentrantHashLocks");
        KNOWN.put("v4-watchdog", "dev.lockstep.v4.WatchdogLocks");
        KNOWN.put("v5-pubsub-retry", "dev.lockstep.v5.PubSubLocks");
        KNOWN.put("v6-redlock", "dev.lockstep.v6.RedLocks");
        KNOWN.put("v7-fencing", "dev.lockstep.v7.FencedLocks");
        KNOWN.put("fair-lock", "dev.lockstep.fair.FairLocks");
        KNOWN.put("read-write-lock", "dev.lockstep.rw.ReadWriteLocks");
        KNOWN.put("multi-lock", "dev.lockstep.multi.MultiNameLocks");
        BEYOND_REDIS.put("zookeeper-lock", "dev.lockstep.zookeeper.ZooKeeperLocks");
    }

    private Stages() {
    }

    /** Every Redis stage, in course order, then the family; each must be on the class path. */
    public static List<Stage> all() {
        return KNOWN.keySet().stream().map(Stages::named).toList();
    }

    /**
     * The alternatives to a Redis lock that the comparison stories play: the optimistic update (no
     * lock at all) and the ZooKeeper lock, whose module must be on the class path.
     */
    public static List<Stage> beyondRedis() {
        List<Stage> alternatives = new ArrayList<>();
        alternatives.add(Stage.lockFree(OPTIMISTIC_UPDATE));
        BEYOND_REDIS.keySet().forEach(name -> alternatives.add(named(name)));
        return alternatives;
    }

    /** The stage named {@code name} (its module), or an {@link IllegalArgumentException} listing the known ones. */
    public static Stage named(String name) {
        if (OPTIMISTIC_UPDATE.equals(name)) {
            return Stage.lockFree(name);
        }
        String className = KNOWN.getOrDefault(name, BEYOND_REDIS.get(name));
        if (className == null) {
            List<String> known = new ArrayList<>(KNOWN.keySet());
            known.add(OPTIMISTIC_UPDATE);
            known.addAll(BEYOND_REDIS.keySet());
            throw new IllegalArgumentException("no stage '" + name + "'; known: " + known);
        }
        try {
            return new Stage(name, Class.forName(className).asSubclass(Locks.class));
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("stage " + name + " is not on the class path: no " + className, e);
        }
    }
}
