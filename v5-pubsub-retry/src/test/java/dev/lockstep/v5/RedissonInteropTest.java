package dev.lockstep.v5;

import dev.lockstep.testkit.contract.RedissonInteropContract;

/** Redisson's {@code getLock(name)} and stage 5's {@code get(name)} are one lock, on one server and on Redis Cluster. */
class RedissonInteropTest extends RedissonInteropContract {

    RedissonInteropTest() {
        super("v5-pubsub-retry", PubSubLocks.class);
    }
}
