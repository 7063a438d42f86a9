package dev.lockstep.rw;

import static dev.lockstep.testkit.contract.RedissonInteropContract.assertWokenWithin;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockstep.ReadWriteDistLock;
import dev.lockstep.testkit.client.LockThread;
import dev.lockstep.testkit.contract.InteropStories;
import dev.lockstep.testkit.fixture.Await;
import dev.lockstep.testkit.fixture.RedisNode;
import dev.lockstep.testkit.interop.InteropGround;
import dev.lockstep.testkit.watch.RedisTraffic;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.redisson.api.RReadWriteLock;
import org.redisson.api.RedissonClient;
import redis.clients.jedis.UnifiedJedis;

/**
 * Redisson's {@code getReadWriteLock(name)} and {@code get(name)} here are one lock, on a server
 * and on a 3-master Cluster: readers of both share, a writer of either keeps the other's readers
 * and writers out, and each one's write unlock wakes the other's waiting reader within 100 ms.
 */
class RedissonInteropTest extends InteropStories {

    private static final Duration SHORT = Duration.ofMillis(200);
    private static final long WAIT_MS = 10_000;
    private static final long LEASE_MS = 30_000;

    RedissonInteropTest() {
        super("read-write-lock", ReadWriteLocks.class);
    }

    @Override
    protected void play(InteropGround ground, String where) throws Exception {
        RedissonClient redisson = ground.redisson();
        ReadWriteLocks locks = (ReadWriteLocks) ground.locks();
        UnifiedJedis redis = ground.redis();
        List<RedisNode> nodes = ground.nodes();
        for (String name : new String[] {"stock", "stock:{eu}"}) {
            readersShare(redisson.getReadWriteLock(name), locks.get(name));
            writersExclude(redisson.getReadWriteLock(name), locks.get(name));
            ourWriteUnlockWakesTheirReader(redisson.getReadWriteLock(name), locks.get(name), nodes, where);
            theirWriteUnlockWakesOurReader(redisson.getReadWriteLock(name), locks.get(name), nodes, where);
            assertFalse(redis.exists(name), name + " outlived every unlock on the " + where);
        }
    }

    private static void readersShare(RReadWriteLock theirs, ReadWriteDistLock ours) throws Exception {
        try (LockThread redisson = new LockThread("redisson"); LockThread lockstep = new LockThread("lockstep")) {
            redisson.run(() -> theirs.readLock().lock(LEASE_MS, TimeUnit.MILLISECONDS));
            assertTrue(lockstep.call(() -> ours.readLock().tryLock(Duration.ZERO, null)), "our reader beside Redisson's");
            redisson.run(() -> theirs.readLock().unlock());
            assertFalse(redisson.call(() -> theirs.writeLock().tryLock(SHORT.toMillis(), LEASE_MS, TimeUnit.MILLISECONDS)),
                    "Redisson's writer entered beside our reader");
            lockstep.run(ours.readLock()::unlock);
        }
    }

    private static void writersExclude(RReadWriteLock theirs, ReadWriteDistLock ours) throws Exception {
        try (LockThread redisson = new LockThread("redisson"); LockThread lockstep = new LockThread("lockstep")) {
            lockstep.run(ours::lock);
            assertFalse(redisson.call(() -> theirs.readLock().tryLock(SHORT.toMillis(), LEASE_MS, TimeUnit.MILLISECONDS)),
                    "Redisson's reader entered beside our writer");
            lockstep.run(ours::unlock);
            redisson.run(() -> theirs.writeLock().lock(LEASE_MS, TimeUnit.MILLISECONDS));
            assertFalse(lockstep.call(() -> ours.readLock().tryLock(SHORT, null)), "our reader entered beside Redisson's writer");
            assertFalse(lockstep.call(() -> ours.tryLock(SHORT, null)), "our writer entered beside Redisson's writer");
            redisson.run(() -> theirs.writeLock().unlock());
        }
    }

    /**
     * Tried twice: under a loaded machine Redisson's client has been seen to lose its own
     * subscription once (its reader slept out the wait); a release that publishes nothing fails both.
     */
    private static void ourWriteUnlockWakesTheirReader(RReadWriteLock theirs, ReadWriteDistLock ours, List<RedisNode> nodes,
                                                       String where) throws Exception {
        String who = "Redisson's reader on the " + where;
        for (int attempt = 1; ; attempt++) {
            try (LockThread redisson = new LockThread("redisson"); LockThread lockstep = new LockThread("lockstep")) {
                lockstep.run(ours::lock);
                assertFalse(redisson.call(() -> theirs.readLock().tryLock(SHORT.toMillis(), LEASE_MS, TimeUnit.MILLISECONDS)),
                        "Redisson's reader entered beside our writer");
                awaitNobodyListening(nodes, ours.name());
                Future<Long> in = redisson.submit(() ->
                        theirs.readLock().tryLock(WAIT_MS, LEASE_MS, TimeUnit.MILLISECONDS) ? System.nanoTime() : -1L);
                long released = awaitListeningThenRelease(nodes, ours.name(), lockstep, ours::unlock);
                long acquired = LockThread.get(in, LockThread.DEADLINE);
                if (acquired < 0 && attempt == 1) {
                    System.out.printf("RedissonInteropTest: %s never got the lock; once more%n", who);
                    continue;
                }
                assertWokenWithin(acquired, released, who);
                redisson.run(() -> theirs.readLock().unlock());
                return;
            }
        }
    }

    private static void theirWriteUnlockWakesOurReader(RReadWriteLock theirs, ReadWriteDistLock ours, List<RedisNode> nodes,
                                                       String where) throws Exception {
        try (LockThread redisson = new LockThread("redisson"); LockThread lockstep = new LockThread("lockstep")) {
            redisson.run(() -> theirs.writeLock().lock(LEASE_MS, TimeUnit.MILLISECONDS));
            assertFalse(lockstep.call(() -> ours.readLock().tryLock(SHORT, null)), "our reader entered beside Redisson's writer");
            awaitNobodyListening(nodes, ours.name());
            Future<Long> in = lockstep.submit(() ->
                    ours.readLock().tryLock(Duration.ofMillis(WAIT_MS), null) ? System.nanoTime() : -1L);
            long released = awaitListeningThenRelease(nodes, ours.name(), redisson, () -> theirs.writeLock().unlock());
            assertWokenWithin(LockThread.get(in, LockThread.DEADLINE), released, "our reader on the " + where);
            lockstep.run(ours.readLock()::unlock);
        }
    }

    /**
     * Waits until the refused try just before has left the channel (both libraries unsubscribe in
     * the background), so that the next listener counted is the waiter itself.
     */
    private static void awaitNobodyListening(List<RedisNode> nodes, String name) {
        String channel = RwKeys.channel(name);
        Await.until("the refused try leaves " + channel, LockThread.DEADLINE,
                () -> RedisTraffic.subscribers(nodes, channel) == 0);
    }

    /**
     * Waits until the waiter listens on the lock's channel (both libraries subscribe once refused,
     * then sleep until a release or the holder's 30 s lease), then sends the release.
     */
    private static long awaitListeningThenRelease(List<RedisNode> nodes, String name, LockThread holder,
                                                  LockThread.Step unlock) throws Exception {
        String channel = RwKeys.channel(name);
        Await.until("the waiter listens on " + channel, LockThread.DEADLINE,
                () -> RedisTraffic.subscribers(nodes, channel) > 0);
        long released = System.nanoTime();
        holder.run(unlock);
        return released;
    }
}
