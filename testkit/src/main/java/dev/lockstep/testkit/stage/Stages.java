package dev.lockstep.testkit.stage;

import dev.lockstep.Locks;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every stage of the course, in course order (each fixes the failure its predecessor shows), then
 * the lock family: the one list the lab, the benchmarks and the contract read. The stages' tests
 * depend on testkit, so testkit names their entry points rather than linking them, and loads a
 * stage's class when it is asked for.
 */
public final class Stages {

    /** Module name to entry point. */
    private static final Map<String, String> KNOWN = new LinkedHashMap<>();

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
    }

    private Stages() {
    }

    /** Every stage, in course order; each must be on the class path. */
    public static List<Stage> all() {
        return KNOWN.keySet().stream().map(Stages::named).toList();
    }

    /** The stage named {@code name} (its module), or an {@link IllegalArgumentException} listing the known ones. */
    public static Stage named(String name) {
        String className = KNOWN.get(name);
        if (className == null) {
            throw new IllegalArgumentException("no stage '" + name + "'; known: " + List.copyOf(KNOWN.keySet()));
        }
        try {
            return new Stage(name, Class.forName(className).asSubclass(Locks.class));
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("stage " + name + " is not on the class path: no " + className, e);
        }
    }
}
