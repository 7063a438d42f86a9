package dev.lockstep.v4;

import dev.lockstep.testkit.contract.RedissonInteropContract;

/** Redisson's {@code getLock(name)} and stage 4's {@code get(name)} are one lock, on one server and on Redis Cluster. */
class RedissonInteropTest extends RedissonInteropContract {

    RedissonInteropTest() {
        super("v4-watchdog", WatchdogLocks.class);
    }
}
