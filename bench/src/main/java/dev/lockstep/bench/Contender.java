package dev.lockstep.bench;

import dev.lockstep.fair.FairLocks;
import dev.lockstep.v1.SetnxLocks;
import dev.lockstep.v2.OwnerCheckLocks;
import dev.lockstep.v3.ReentrantHashLocks;
import dev.lockstep.v4.WatchdogLocks;
import dev.lockstep.v5.PubSubLocks;
import dev.lockstep.v7.FencedLocks;
import java.util.function.Function;
import org.redisson.api.RedissonClient;
import redis.clients.jedis.HostAndPort;

/** What a single-node benchmark sweeps: every single-node stage, the fair lock, and the Redisson locks they are measured against. */
public enum Contender {
    V1_SETNX("v1-setnx", address -> LockClient.lockstep(address, SetnxLocks::new)),
    V2_OWNER_CHECK("v2-owner-check", address -> LockClient.lockstep(address, OwnerCheckLocks::new)),
    V3_REENTRANT_HASH("v3-reentrant-hash", address -> LockClient.lockstep(address, ReentrantHashLocks::new)),
    V4_WATCHDOG("v4-watchdog", address -> LockClient.lockstep(address, WatchdogLocks::new)),
    V5_PUBSUB_RETRY("v5-pubsub-retry", address -> LockClient.lockstep(address, PubSubLocks::new)),
    V7_FENCING("v7-fencing", address -> LockClient.lockstep(address, FencedLocks::new)),
    FAIR_LOCK("fair-lock", address -> LockClient.lockstep(address, FairLocks::new)),
    REDISSON_LOCK("Redisson RLock", address -> LockClient.redisson(address, RedissonClient::getLock)),
    REDISSON_FAIR_LOCK("Redisson RFairLock", address -> LockClient.redisson(address, RedissonClient::getFairLock)),
    REDISSON_FENCED_LOCK("Redisson RFencedLock", address -> LockClient.redisson(address, RedissonClient::getFencedLock));

    private final String label;
    private final Function<HostAndPort, LockClient> client;

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
