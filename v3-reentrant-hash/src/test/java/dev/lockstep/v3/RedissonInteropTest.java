package dev.lockstep.v3;

import dev.lockstep.testkit.contract.RedissonInteropContract;

/** Redisson's {@code getLock(name)} and stage 3's {@code get(name)} are one lock, on one server and on Redis Cluster. */
class RedissonInteropTest extends RedissonInteropContract {

    RedissonInteropTest() {
        super("v3-reentrant-hash", ReentrantHashLocks.class);
    }
}
