package dev.lockstep.starter;

import dev.lockstep.LockOptions;
import dev.lockstep.Locks;
import dev.lockstep.fair.FairLocks;
import dev.lockstep.multi.MultiNameLocks;
import dev.lockstep.rw.ReadWriteLocks;
import dev.lockstep.v1.SetnxLocks;
import dev.lockstep.v2.OwnerCheckLocks;
import dev.lockstep.v3.ReentrantHashLocks;
import dev.lockstep.v4.WatchdogLocks;
import dev.lockstep.v6.RedLocks;
import dev.lockstep.v7.FencedLocks;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;
import redis.clients.jedis.UnifiedJedis;

/** The locks {@code lockstep.kind} can name: each stage of the course, and the lock family on stage 5. */
public enum LockKind {
    V1_SETNX("v1-setnx"),
    V2_OWNER_CHECK("v2-owner-check"),
    V3_REENTRANT_HASH("v3-reentrant-hash"),
    V4_WATCHDOG("v4-watchdog"),
    /** Stage 5, opened as {@link MultiNameLocks}: its single names are stage 5's locks, and it also locks several names as one. */
    V5_PUBSUB_RETRY("v5-pubsub-retry"),
    /** RedLock over the main connection and {@code lockstep.redlock.nodes}. */
    V6_REDLOCK("v6-redlock"),
    V7_FENCING("v7-fencing"),
    FAIR("fair"),
    /** {@code get(name)} is the write side; its {@code readLock()} the read side. */
    READ_WRITE("read-write"),
    /** The same client as {@link #V5_PUBSUB_RETRY}, named for the family member it is. */
    MULTI_NAME("multi-name");

    private final String id;

    LockKind(String id) {
        this.id = id;
    }

    /**
     * The kind called {@code id}, as {@code lockstep.kind} spells it.
     *
     * @throws IllegalArgumentException naming every allowed value, when {@code id} is none of them
     */
    public static LockKind of(String id) {
        return Arrays.stream(values()).filter(kind -> kind.id.equals(id)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("lockstep.kind must be one of " + ids() + "; was '" + id + "'"));
    }

    /** Every kind's name, comma-separated, in course order. */
    public static String ids() {
        return Arrays.stream(values()).map(LockKind::id).collect(Collectors.joining(", "));
    }

    /** The name {@code lockstep.kind} gives this kind. */
    public String id() {
        return id;
    }

    /**
     * A client of this kind's lock over {@code nodes}: RedLock uses all of them as independent
     * masters, every other kind only the first. The caller closes it, before the nodes.
     */
    public Locks open(List<UnifiedJedis> nodes, LockOptions options) {
        Objects.requireNonNull(nodes, "nodes must not be null");
        if (nodes.isEmpty()) {
            throw new IllegalArgumentException("nodes must hold at least one Redis client, was empty");
        }
        UnifiedJedis redis = nodes.get(0);
        return switch (this) {
            case V1_SETNX -> new SetnxLocks(redis, options);
            case V2_OWNER_CHECK -> new OwnerCheckLocks(redis, options);
            case V3_REENTRANT_HASH -> new ReentrantHashLocks(redis, options);
            case V4_WATCHDOG -> new WatchdogLocks(redis, options);
            case V5_PUBSUB_RETRY, MULTI_NAME -> new MultiNameLocks(redis, options);
            case V6_REDLOCK -> new RedLocks(nodes, options);
            case V7_FENCING -> new FencedLocks(redis, options);
            case FAIR -> new FairLocks(redis, options);
            case READ_WRITE -> new ReadWriteLocks(redis, options);
        };
    }

    @Override
    public String toString() {
        return id;
    }
}
