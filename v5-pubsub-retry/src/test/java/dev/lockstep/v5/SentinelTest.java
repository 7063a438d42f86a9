package dev.lockstep.v5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.lockstep.DistLock;
import dev.lockstep.LockException;
import dev.lockstep.LockOptions;
import dev.lockstep.testkit.client.LockThread;
import dev.lockstep.testkit.fixture.Await;
import dev.lockstep.testkit.fixture.RedisNode;
import dev.lockstep.testkit.fixture.SentinelFixture;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.RedisSentinelClient;
import redis.clients.jedis.exceptions.JedisException;

/**
 * Stage 5 behind real Sentinels through {@link RedisSentinelClient}: three Sentinels (quorum 2)
 * watch a master with one replica; the master is SIGKILLed, the Sentinels promote the replica,
 * and the same {@link PubSubLocks} over the same client keeps working against the new master,
 * its pub/sub wake-ups included. (What the failover does to a lock held across it is the
 * {@code failover} scenario's business; here the point is that the client follows.)
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SentinelTest {

    private static final Logger log = LoggerFactory.getLogger(SentinelTest.class);
    private static final LockOptions OPTIONS = LockOptions.defaults()
            .withWatchdogTimeout(Duration.ofMillis(900))
            .withSpinInterval(Duration.ofMillis(50));
    private static final Duration DOWN_AFTER = Duration.ofMillis(1000);
    private static final Duration FAILOVER_TIMEOUT = Duration.ofMillis(2000);
    private static final Duration FAILOVER_WITHIN = Duration.ofSeconds(15);
    private static final Duration CLIENT_FOLLOWS_WITHIN = Duration.ofSeconds(10);
    private static final Duration WAKE_WITHIN = Duration.ofMillis(1000);

    @Test
    void locksFollowAFailoverThroughTheSameSentinelClient() throws Exception {
        Set<Thread> threadsBefore = Thread.getAllStackTraces().keySet();
        try (SentinelFixture sentinels = SentinelFixture.start(3, 2, DOWN_AFTER, FAILOVER_TIMEOUT);
             RedisSentinelClient redisA = sentinels.newClient();
             RedisSentinelClient redisB = sentinels.newClient();
             PubSubLocks a = new PubSubLocks(redisA, OPTIONS);
             PubSubLocks b = new PubSubLocks(redisB, OPTIONS)) {
            RedisNode oldMaster = sentinels.master();
            RedisNode replica = sentinels.replica();
            assertEquals(oldMaster.address(), redisA.getCurrentMaster(), "the client starts on the master");
            String name = "sentinel-job";
            DistLock lockA = a.get(name);
            DistLock lockB = b.get(name);

            // Before: the lock works on the first master, reentrancy, owner check and pub/sub wake-up included.
            exerciseOn(oldMaster, a, lockA, lockB, name, "before the failover");

            // The master dies; the Sentinels agree it is down and promote the replica.
            long killed = System.nanoTime();
            oldMaster.kill();
            log.info("killed master {}", oldMaster.label());
            Await.until("the Sentinels report " + replica.label() + " as master", FAILOVER_WITHIN,
                    () -> replica.address().equals(sentinels.reportedMaster()));
            Duration failover = Duration.ofNanos(System.nanoTime() - killed);
            try (Jedis admin = replica.admin()) {
                assertEquals("master", admin.role().get(0), replica.label() + " was promoted");
            }
            log.info("Sentinels promoted {} {} ms after the kill", replica.label(), failover.toMillis());

            // After: the same Locks over the same client acquires and releases against the new master.
            Await.until("client A follows +switch-master", CLIENT_FOLLOWS_WITHIN,
                    () -> replica.address().equals(redisA.getCurrentMaster()));
            long followed = System.nanoTime();
            Await.until("lock '" + name + "' acquired through the same client after the failover", CLIENT_FOLLOWS_WITHIN,
                    () -> acquiredOnce(lockA));
            lockA.unlock();
            Duration firstLock = Duration.ofNanos(System.nanoTime() - killed);
            log.info("the same Locks took and released '{}' on the new master {} ms after the kill "
                    + "({} ms after the client switched)", name, firstLock.toMillis(),
                    Duration.ofNanos(System.nanoTime() - followed).toMillis());
            Await.until("client B follows +switch-master", CLIENT_FOLLOWS_WITHIN,
                    () -> replica.address().equals(redisB.getCurrentMaster()));

            exerciseOn(replica, a, lockA, lockB, name, "after the failover");
        }
        assertNoThreadsLeft(threadsBefore);
    }

    /**
     * On {@code master}: A takes the lock twice (hold count 2 in the hash there), B is kept out and
     * cannot unlock it, and a waiting B is woken by A's release publish well before A's lease ends.
     */
    private static void exerciseOn(RedisNode master, PubSubLocks a, DistLock lockA, DistLock lockB, String name,
                                   String when) throws Exception {
        String key = name;
        Duration lease = Duration.ofSeconds(10);
        lockA.lock(lease);
        try (Jedis admin = master.admin()) {
            assertTrue(lockA.tryLock(Duration.ZERO, lease), "reentrant " + when);
            assertEquals("2", admin.hget(key, a.clientId() + ":" + Thread.currentThread().getId()),
                    "hold count 2 on " + master.label() + " " + when);
            lockA.unlock();
            assertFalse(call(() -> lockB.tryLock()), "B kept out " + when);
            Throwable unlockByB = call(() -> {
                try {
                    lockB.unlock();
                    return null;
                } catch (IllegalMonitorStateException e) {
                    return e;
                }
            });
            assertTrue(unlockByB instanceof IllegalMonitorStateException, "B's unlock must throw " + when);

            try (LockThread waiter = new LockThread("sentinel-waiter")) {
                Future<Long> bAcquired = waiter.submit(() -> {
                    if (!lockB.tryLock(Duration.ofSeconds(20), lease)) {
                        throw new AssertionError("B gave up");
                    }
                    long acquired = System.nanoTime();
                    lockB.unlock();
                    return acquired;
                });
                String channel = Probe.channel(name);
                Await.until("B subscribed on " + master.label() + " " + when, Duration.ofSeconds(5),
                        () -> admin.pubsubNumSub(channel).getOrDefault(channel, 0L) == 1);
                Await.until("B parked", Duration.ofSeconds(5),
                        () -> waiter.thread().getState() == Thread.State.TIMED_WAITING);
                Await.pause(Duration.ofMillis(100));
                long pttl = admin.pttl(key);
                assertTrue(pttl > 5_000, "A's lease has long to run: " + pttl);
                long released = System.nanoTime();
                lockA.unlock();
                Duration lag = Duration.ofNanos(LockThread.get(bAcquired, Duration.ofSeconds(5)) - released);
                log.info("{} on {}: B woken {} ms after A's release (A's PTTL was {} ms)", when, master.label(),
                        lag.toMillis(), pttl);
                assertTrue(lag.compareTo(WAKE_WITHIN) < 0, "the publish woke B " + when + " after " + lag.toMillis() + " ms");
            }
            assertFalse(admin.exists(key), "released on " + master.label() + " " + when);
        }
        assertThrows(IllegalMonitorStateException.class, lockA::unlock, "nothing left to unlock " + when);
    }

    /** One tryLock; a connection error while the client is still on the dead master counts as not yet. */
    private static boolean acquiredOnce(DistLock lock) {
        try {
            return lock.tryLock(Duration.ZERO, Duration.ofSeconds(10));
        } catch (LockException | JedisException e) {
            log.debug("not yet: {}", e.toString());
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return fail("interrupted");
        }
    }

    /** Runs {@code task} on another thread (lock ownership is per thread) and returns its result. */
    private static <T> T call(Callable<T> task) throws Exception {
        try (LockThread thread = new LockThread("sentinel-contender")) {
            return thread.call(task);
        }
    }

    /** The lock's, Jedis's Sentinel listeners' and the test's own threads are all gone once everything is closed. */
    private static void assertNoThreadsLeft(Set<Thread> before) {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!leftovers(before).isEmpty() && System.nanoTime() < deadline) {
            Await.pause(Duration.ofMillis(50));
        }
        assertEquals(List.of(), leftovers(before), "threads the test started that are still alive");
    }

    private static List<String> leftovers(Set<Thread> before) {
        List<String> left = new ArrayList<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            String n = t.getName();
            if (t.isAlive() && !before.contains(t)
                    && (n.startsWith("lockstep-") || n.contains("SentinelListener") || n.startsWith("sentinel-"))) {
                left.add(n);
            }
        }
        return left;
    }
}
