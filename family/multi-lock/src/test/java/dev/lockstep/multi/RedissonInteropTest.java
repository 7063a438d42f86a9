package dev.lockstep.multi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockstep.DistLock;
import dev.lockstep.multi.internal.NameGroupLock;
import dev.lockstep.testkit.client.LockThread;
import dev.lockstep.testkit.contract.InteropStories;
import dev.lockstep.testkit.interop.InteropGround;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.redisson.RedissonMultiLock;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;
import redis.clients.jedis.UnifiedJedis;

/**
 * Redisson's {@code RedissonMultiLock} over {@code getLock(name)}s beside ours over the same names,
 * on a server and on a 3-master Cluster: a {@link MultiNameLock} over single-name locks, and
 * {@link MultiNameLocks#getAll} (one script per node; on the Cluster, one per slot, or one for names
 * that share a hash tag). Each keeps the other out part by part, and the two, listing the names in
 * opposite orders, never deadlock each other.
 */
class RedissonInteropTest extends InteropStories {

    private static final Duration SHORT = Duration.ofMillis(200);
    private static final long LEASE_MS = 30_000;
    private static final int ROUNDS = 20;

    RedissonInteropTest() {
        super("multi-lock", MultiNameLocks.class);
    }

    @Override
    protected void play(InteropGround ground, String where) throws Exception {
        RedissonClient redisson = ground.redisson();
        MultiNameLocks locks = (MultiNameLocks) ground.locks();
        UnifiedJedis redis = ground.redis();
        assertInstanceOf(NameGroupLock.class, locks.getAll("{order:7}payment", "{order:7}inventory"),
                "names that share a hash tag take one script on the " + where);
        Class<? extends DistLock> untagged = where.equals("cluster") ? MultiNameLock.class : NameGroupLock.class;
        assertEquals(untagged, locks.getAll("payment", "inventory").getClass(),
                "names on different slots take one script each on a cluster");
        for (List<String> names : List.of(List.of("inventory", "order", "payment"),
                List.of("{order:7}inventory", "{order:7}order", "{order:7}payment"))) {
            String a = names.get(0);
            String b = names.get(1);
            String c = names.get(2);
            eachKeepsTheOtherOutPartByPart(redisson, new MultiNameLock(locks.get(a), locks.get(b)), a, b, redis, where);
            eachKeepsTheOtherOutPartByPart(redisson, locks.getAll(b, a), a, b, redis, where + ", one script per slot");
            oppositeOrdersNeverDeadlockEachOther(redisson, new MultiNameLock(locks.get(b), locks.get(a), locks.get(c)),
                    names, where);
            oppositeOrdersNeverDeadlockEachOther(redisson, locks.getAll(b, a, c), names, where + ", one script per slot");
            for (String name : names) {
                assertFalse(redis.exists(name), name + " outlived every unlock on the " + where);
            }
        }
    }

    /** {@code ours} over {@code a} and {@code b}, beside Redisson's over the same names. */
    private static void eachKeepsTheOtherOutPartByPart(RedissonClient redisson, DistLock ours, String a, String b,
            UnifiedJedis redis, String where) throws Exception {
        RLock theirs = new RedissonMultiLock(redisson.getLock(b), redisson.getLock(a));
        try (LockThread redissonThread = new LockThread("redisson"); LockThread lockstep = new LockThread("lockstep")) {
            redissonThread.run(() -> redisson.getLock(b).lock(LEASE_MS, TimeUnit.MILLISECONDS));
            assertFalse(lockstep.call(() -> ours.tryLock(SHORT, null)), "Redisson holds a part on the " + where);
            assertFalse(redis.exists(a), "no part is left held on the " + where);
            redissonThread.run(() -> redisson.getLock(b).unlock());

            lockstep.run(ours::lock);
            assertFalse(redissonThread.call(() -> theirs.tryLock(SHORT.toMillis(), LEASE_MS, TimeUnit.MILLISECONDS)),
                    "ours holds both parts on the " + where);
            lockstep.run(ours::unlock);
            assertTrue(redissonThread.call(() -> theirs.tryLock(SHORT.toMillis(), LEASE_MS, TimeUnit.MILLISECONDS)),
                    "both parts are free again on the " + where);
            redissonThread.run(theirs::unlock);
        }
    }

    /** {@code ours} over {@code names}, beside Redisson's listing them the other way round. */
    private static void oppositeOrdersNeverDeadlockEachOther(RedissonClient redisson, DistLock ours, List<String> names,
            String where) throws Exception {
        RLock theirs = new RedissonMultiLock(redisson.getLock(names.get(2)), redisson.getLock(names.get(1)),
                redisson.getLock(names.get(0)));
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
