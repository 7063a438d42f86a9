package dev.lockstep.bench;

import dev.lockstep.testkit.stage.Stage;
import dev.lockstep.testkit.stage.Stages;
import java.util.List;
import java.util.function.Function;
import org.redisson.api.RedissonClient;
import redis.clients.jedis.HostAndPort;

/**
 * What a single-node benchmark sweeps: every single-node stage, the fair lock (each from the stage
 * registry, {@link Stages}), and the Redisson locks they are measured against.
 */
public enum Contender {
    V1_SETNX(Stages.named("v1-setnx")),
    V2_OWNER_CHECK(Stages.named("v2-owner-check")),
    V3_REENTRANT_HASH(Stages.named("v3-reentrant-hash")),
    V4_WATCHDOG(Stages.named("v4-watchdog")),
    V5_PUBSUB_RETRY(Stages.named("v5-pubsub-retry")),
    V7_FENCING(Stages.named("v7-fencing")),
    FAIR_LOCK(Stages.named("fair-lock")),
    REDISSON_LOCK("Redisson RLock", address -> LockClient.redisson(address, RedissonClient::getLock)),
    REDISSON_FAIR_LOCK("Redisson RFairLock", address -> LockClient.redisson(address, RedissonClient::getFairLock)),
    REDISSON_FENCED_LOCK("Redisson RFencedLock", address -> LockClient.redisson(address, RedissonClient::getFencedLock));

    private final String label;
    private final Function<HostAndPort, LockClient> client;

    Contender(Stage stage) {
        this(stage.name(), address -> LockClient.lockstep(address, (redis, options) -> stage.open(List.of(redis), options)));
    }

    Contender(String label, Function<HostAndPort, LockClient> client) {
        this.label = label;
        this.client = client;
    }

    /** The name charts and tables use: the stage's module, or the Redisson class. */
    public String label() {
        return label;
    }

    /** A new client identity of this contender on the Redis at {@code address}. */
    LockClient open(HostAndPort address) {
        return client.apply(address);
    }
}
