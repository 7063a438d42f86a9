package dev.lockstep.examples.inventory;

import dev.lockstep.LockOptions;
import dev.lockstep.Locks;
import dev.lockstep.starter.LockKind;
import java.util.List;
import redis.clients.jedis.UnifiedJedis;

/** The locks the tests compare: each stage of the course as the starter's {@code lockstep.kind} names it, and none at all. */
public enum Stage {
    /** No lock: the service as the articles show it before they add one ({@code inventory.locked=false}). */
    NONE(null),
    V1_SETNX(LockKind.V1_SETNX),
    V2_OWNER_CHECK(LockKind.V2_OWNER_CHECK),
    V3_REENTRANT_HASH(LockKind.V3_REENTRANT_HASH),
    V4_WATCHDOG(LockKind.V4_WATCHDOG),
    V5_PUBSUB_RETRY(LockKind.V5_PUBSUB_RETRY),
    V6_REDLOCK(LockKind.V6_REDLOCK),
    V7_FENCING(LockKind.V7_FENCING);

    private final LockKind kind;

    Stage(LockKind kind) {
        this.kind = kind;
    }

    /** The stage's name in reports and log files. */
    public String id() {
        return kind == null ? "none" : kind.id();
    }

    /** The service's command-line setting that selects this stage. */
    public String setting() {
        return kind == null ? "--inventory.locked=false" : "--lockstep.kind=" + kind.id();
    }

    /** A client of this stage's lock over {@code nodes}, as the service opens it; null for {@link #NONE}. */
    public Locks open(List<UnifiedJedis> nodes, LockOptions options) {
        return kind == null ? null : kind.open(nodes, options);
    }

    @Override
    public String toString() {
        return id();
    }
}
