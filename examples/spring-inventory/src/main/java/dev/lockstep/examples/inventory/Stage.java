package dev.lockstep.examples.inventory;

import dev.lockstep.LockOptions;
import dev.lockstep.Locks;
import dev.lockstep.multi.MultiNameLocks;
import dev.lockstep.v1.SetnxLocks;
import dev.lockstep.v2.OwnerCheckLocks;
import dev.lockstep.v3.ReentrantHashLocks;
import dev.lockstep.v4.WatchdogLocks;
import dev.lockstep.v6.RedLocks;
import dev.lockstep.v7.FencedLocks;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import redis.clients.jedis.UnifiedJedis;

/** The locks {@code lockstep.stage} can name: each stage of the course, and none at all. */
public enum Stage {
    /** No lock: the service as the articles show it before they add one. */
    NONE("none"),
    V1_SETNX("v1-setnx"),
    V2_OWNER_CHECK("v2-owner-check"),
    V3_REENTRANT_HASH("v3-reentrant-hash"),
    V4_WATCHDOG("v4-watchdog"),
    V5_PUBSUB_RETRY("v5-pubsub-retry"),
    V6_REDLOCK("v6-redlock"),
    V7_FENCING("v7-fencing");

    private final String id;

    Stage(String id) {
        this.id = id;
    }

    /** The stage called {@code id}, as {@code lockstep.stage} spells it. */
    public static Stage of(String id) {
        return Arrays.stream(values()).filter(stage -> stage.id.equals(id)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("lockstep.stage must be one of "
                        + Arrays.stream(values()).map(Stage::id).collect(Collectors.joining(", ")) + "; was " + id));
    }

    /** The name {@code lockstep.stage} gives this stage. */
    public String id() {
        return id;
    }

    /**
     * A client of this stage's lock; stages 1-5 and 7 use the first of {@code nodes}, RedLock all
     * of them. Null for {@link #NONE}. Stage 5's is {@link MultiNameLocks}: its single names are
     * stage 5's own locks, and it also hands out one lock over several names.
     */
    public Locks open(List<UnifiedJedis> nodes, LockOptions options) {
        UnifiedJedis redis = nodes.get(0);
        return switch (this) {
            case NONE -> null;
            case V1_SETNX -> new SetnxLocks(redis, options);
            case V2_OWNER_CHECK -> new OwnerCheckLocks(redis, options);
            case V3_REENTRANT_HASH -> new ReentrantHashLocks(redis, options);
            case V4_WATCHDOG -> new WatchdogLocks(redis, options);
            case V5_PUBSUB_RETRY -> new MultiNameLocks(redis, options);
            case V6_REDLOCK -> new RedLocks(nodes, options);
            case V7_FENCING -> new FencedLocks(redis, options);
        };
    }

    @Override
    public String toString() {
        return id;
    }
}
