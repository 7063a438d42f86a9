package dev.lockstep.multi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockstep.Locks;
import dev.lockstep.testkit.client.LockThread;
import dev.lockstep.testkit.contract.InteropStories;
import dev.lockstep.testkit.interop.InteropGround;
import dev.lockstep.v5.PubSubLocks;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.redisson.RedissonMultiLock;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;
import redis.clients.jedis.UnifiedJedis;

/**
 * Redisson's {@code RedissonMultiLock} over {@code getLock(name)}s and a {@link MultiNameLock} over
 * stage 5's locks of the same names, on a server and on a 3-master Cluster: each keeps the other
 * out part by part, and the two, listing the names in opposite orders, never deadlock each other.
 */
class RedissonInteropTest extends InteropStories {

    private static final Duration SHORT = Duration.ofMillis(200);
    private static final long LEASE_MS = 30_000;
    private static final int ROUNDS = 20;

    RedissonInteropTest() {
        super("v5-pubsub-retry", PubSubLocks.class);
    }

    @Override
    protected void play(InteropGround ground, String where) throws Exception {
        RedissonClient redisson = ground.redisson();
        Locks locks = ground.locks();
        UnifiedJedis redis = ground.redis();
        eachKeepsTheOtherOutPartByPart(redisson, locks, redis, where);
        oppositeOrdersNeverDeadlockEachOther(redisson, locks, where);
        for (String name : List.of("inventory", "order", "payment")) {
            assertFalse(redis.exists(name), name + " outlived every unlock on the " + where);
        }
    }

    private static void eachKeepsTheOtherOutPartByPart(RedissonClient redisson, Locks locks, UnifiedJedis redis,
            String where) throws Exception {
        MultiNameLock ours = new MultiNameLock(locks.get("inventory"), locks.get("order"));
        RLock theirs = new RedissonMultiLock(redisson.getLock("order"), redisson.getLock("inventory"));
        try (LockThread redissonThread = new LockThread("redisson"); LockThread lockstep = new LockThread("lockstep")) {
            redissonThread.run(() -> redisson.getLock("order").lock(LEASE_MS, TimeUnit.MILLISECONDS));
            assertFalse(lockstep.call(() -> ours.tryLock(SHORT, null)), "Redisson holds a part on the " + where);
            assertFalse(redis.exists("inventory"), "the part taken on the way is given back on the " + where);
            redissonThread.run(() -> redisson.getLock("order").unlock());

            lockstep.run(ours::lock);
            assertFalse(redissonThread.call(() -> theirs.tryLock(SHORT.toMillis(), LEASE_MS, TimeUnit.MILLISECONDS)),
                    "ours holds both parts on the " + where);
            lockstep.run(ours::unlock);
            assertTrue(redissonThread.call(() -> theirs.tryLock(SHORT.toMillis(), LEASE_MS, TimeUnit.MILLISECONDS)),
                    "both parts are free again on the " + where);
            redissonThread.run(theirs::unlock);
        }
    }

    private static void oppositeOrdersNeverDeadlockEachOther(RedissonClient redisson, Locks locks, String where)
            throws Exception {
        MultiNameLock ours = new MultiNameLock(locks.get("order"), locks.get("inventory"), locks.get("payment"));
        RLock theirs = new RedissonMultiLock(redisson.getLock("payment"), redisson.getLock("order"),
                redisson.getLock("inventory"));
        Sections sections = new Sections();
        try (LockThread redissonThread = new LockThread("redisson"); LockThread lockstep = new LockThread("lockstep")) {
            List<Future<Object>> runs = List.of(
                    lockstep.submit(() -> sections.play("ours", ROUNDS, ours::lock, ours::unlock)),
                    redissonThread.submit(() -> sections.play("Redisson's", ROUNDS,
                            () -> theirs.lock(LEASE_MS, TimeUnit.MILLISECONDS), theirs::unlock)));
            sections.start();
            for (Future<Object> run : runs) {
                LockThread.get(run, LockThread.DEADLINE);
            }
        }
        assertEquals(List.of(), sections.overlaps(), "sections that overlapped on the " + where);
    }
}
