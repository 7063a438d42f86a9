package dev.lockstep.v3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockstep.DistLock;
import dev.lockstep.LockOptions;
import dev.lockstep.testkit.client.LockThread;
import dev.lockstep.testkit.interop.InteropNode;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.redisson.api.RLock;
import redis.clients.jedis.RedisClient;

/**
 * A Redisson {@link RLock} and the v3 lock of one name are one lock: the same Redis hash at the
 * name, field {@code clientId:threadId} to hold count. ({@link RedissonInteropTest} shows they
 * exclude and wake each other, also on Redis Cluster.) So a team can migrate between
 * Redisson and Lockstep v3 one lock at a time, with old and new code running side by side, and
 * mutual exclusion holds throughout: each client sees the other's holds.
 *
 * <p>Both clients name the owner by thread id, so every holder here is one dedicated thread that
 * does both its lock and its unlock.
 */
class RedissonLayoutTest {

    /** How long a blocked client tries before giving up: many v3 spins, more than one Redisson round trip. */
    private static final Duration SHORT_WAIT = Duration.ofMillis(200);

    private static InteropNode shared;
    private static RedisClient redis;
    private static ReentrantHashLocks lockstep;

    @BeforeAll
    static void start() {
        shared = new InteropNode();
        redis = shared.redis();
        lockstep = new ReentrantHashLocks(redis, LockOptions.defaults());
    }

    @AfterAll
    static void stop() {
        if (lockstep != null) {
            lockstep.close();
        }
        if (shared != null) {
            shared.close();
        }
    }

    @Test
    void bothWriteTheSameHashOneFieldPerOwnerCountingHolds() throws Exception {
        String name = "layout";
        String key = key(name);
        RLock theirs = shared.redissonLock(name);
        DistLock ours = lockstep.get(name);
        try (LockThread redissonThread = new LockThread("redisson"); LockThread v3Thread = new LockThread("v3")) {
            // Redisson's owner field is its client id, a colon, and the holding thread's id.
            String redissonOwner = shared.redisson().getId() + ":" + redissonThread.threadId();
            redissonThread.run(theirs::lock);
            assertEquals("hash", redis.type(key));
            assertEquals(Map.of(redissonOwner, "1"), redis.hgetAll(key));
            redissonThread.run(theirs::lock);
            assertEquals(Map.of(redissonOwner, "2"), redis.hgetAll(key));
            redissonThread.run(theirs::unlock);
            redissonThread.run(theirs::unlock);
            assertFalse(redis.exists(key), "Redisson's last unlock left the hash behind");

            // v3 writes the same shape, its own client id in Redisson's place.
            String v3Owner = lockstep.clientId() + ":" + v3Thread.threadId();
            v3Thread.run(ours::lock);
            assertEquals("hash", redis.type(key));
            assertEquals(Map.of(v3Owner, "1"), redis.hgetAll(key));
            v3Thread.run(ours::lock);
            assertEquals(Map.of(v3Owner, "2"), redis.hgetAll(key));
            v3Thread.run(ours::unlock);
            v3Thread.run(ours::unlock);
            assertFalse(redis.exists(key), "v3's last unlock left the hash behind");

            // Both ids are UUIDs, so the two fields are indistinguishable in form.
            String ownerForm = "[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}:\\d+";
            assertTrue(redissonOwner.matches(ownerForm), redissonOwner);
            assertTrue(v3Owner.matches(ownerForm), v3Owner);
        }
    }

    @Test
    void aReentrantV3HoldKeepsRedissonOutUntilTheLastUnlock() throws Exception {
        String name = "v3-reenters";
        RLock theirs = shared.redissonLock(name);
        DistLock ours = lockstep.get(name);
        try (LockThread redissonThread = new LockThread("redisson"); LockThread v3Thread = new LockThread("v3")) {
            Callable<Boolean> redissonTries = () -> theirs.tryLock(SHORT_WAIT.toMillis(), TimeUnit.MILLISECONDS);
            v3Thread.run(ours::lock);
            v3Thread.run(ours::lock);

            v3Thread.run(ours::unlock);
            // One unlock of two only lowers the count: the lock is still v3's.
            assertEquals(List.of("1"), redis.hvals(key(name)));
            assertFalse(redissonThread.call(redissonTries), "Redisson took the lock after v3's first of two unlocks");

            v3Thread.run(ours::unlock);
            assertTrue(redissonThread.call(redissonTries), "Redisson did not take the lock after v3's last unlock");
            assertFalse(theirs.isHeldByThread(v3Thread.threadId()), "Redisson thinks v3's thread holds it");

            redissonThread.run(theirs::unlock);
        }
        assertFalse(redis.exists(key(name)), "the lock outlived every unlock");
    }

    /** The key both clients use: the lock's name. */
    private static String key(String name) {
        return name;
    }
}
