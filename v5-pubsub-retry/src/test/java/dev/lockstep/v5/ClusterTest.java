package dev.lockstep.v5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockstep.DistLock;
import dev.lockstep.LockOptions;
import dev.lockstep.testkit.client.LockThread;
import dev.lockstep.testkit.fixture.Await;
import dev.lockstep.testkit.fixture.RedisClusterFixture;
import dev.lockstep.testkit.fixture.RedisNode;
import dev.lockstep.testkit.watch.RedisTraffic;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.RedisClusterClient;
import redis.clients.jedis.exceptions.JedisMovedDataException;

/**
 * Stage 5 on a real 3-master Redis Cluster through {@link RedisClusterClient}: the contract's core
 * (mutual exclusion, reentrancy, owner check, watchdog renewal, pub/sub wake-up) on one lock name
 * per master, so every master serves a lock. A lock's hash and its release channel share a slot
 * through the {@code {name}} hash tag, which is what lets the scripts (one key plus a channel)
 * run on a cluster at all.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ClusterTest {

    private static final Logger log = LoggerFactory.getLogger(ClusterTest.class);
    private static final Duration WATCHDOG = Duration.ofMillis(600);
    private static final LockOptions OPTIONS = LockOptions.defaults()
            .withWatchdogTimeout(WATCHDOG)
            .withSpinInterval(Duration.ofMillis(50));

    private RedisClusterFixture cluster;
    private RedisClusterClient redisA;
    private RedisClusterClient redisB;
    /** One lock name per master, in master order. */
    private final Map<String, RedisNode> names = new LinkedHashMap<>();
    private Set<Thread> threadsBefore;

    private PubSubLocks a;
    private PubSubLocks b;

    @BeforeAll
    void startCluster() {
        threadsBefore = Thread.getAllStackTraces().keySet();
        cluster = RedisClusterFixture.start(3);
        redisA = cluster.newClient();
        redisB = cluster.newClient();
        for (RedisNode master : cluster.masters()) {
            for (int i = 0; ; i++) {
                String name = "cluster-lock-" + i;
                if (!names.containsKey(name) && cluster.masterOfKey(Probe.key(name)) == master) {
                    names.put(name, master);
                    break;
                }
            }
        }
        names.forEach((name, master) -> log.info("lock '{}': slot {} on {}", name,
                RedisClusterFixture.slot(Probe.key(name)), master.label()));
    }

    @AfterAll
    void stopCluster() {
        try {
            if (redisA != null) {
                redisA.close();
            }
            if (redisB != null) {
                redisB.close();
            }
        } finally {
            if (cluster != null) {
                cluster.close();
            }
        }
        assertNoLockstepThreadsLeft(threadsBefore);
    }

    @BeforeEach
    void newClients() {
        a = new PubSubLocks(redisA, OPTIONS);
        b = new PubSubLocks(redisB, OPTIONS);
    }

    @AfterEach
    void closeClients() {
        if (a != null) {
            a.close();
        }
        if (b != null) {
            b.close();
        }
        a = null;
        b = null;
    }

    List<String> names() {
        return List.copyOf(names.keySet());
    }

    @Test
    void lockNamesSpreadOverEveryMasterAndKeepKeyAndChannelInOneSlot() throws Exception {
        assertEquals(new HashSet<>(cluster.masters()), new HashSet<>(names.values()),
                "one lock name per master");
        Set<Long> slots = new HashSet<>();
        for (Map.Entry<String, RedisNode> entry : names.entrySet()) {
            String name = entry.getKey();
            RedisNode owner = entry.getValue();
            long slot;
            try (Jedis admin = owner.admin()) {
                slot = admin.clusterKeySlot(Probe.key(name));
                assertEquals(slot, admin.clusterKeySlot(Probe.channel(name)),
                        "the release channel hashes to the lock key's slot");
                assertEquals(RedisClusterFixture.slot(Probe.key(name)), slot, "client and server agree on the slot");
            }
            slots.add(slot);

            DistLock lock = a.get(name);
            lock.lock();
            try {
                try (Jedis admin = owner.admin()) {
                    assertTrue(admin.exists(Probe.key(name)), "the lock hash lives on " + owner.label());
                }
                for (RedisNode other : cluster.masters()) {
                    if (other != owner) {
                        try (Jedis admin = other.admin()) {
                            JedisMovedDataException moved = assertThrows(JedisMovedDataException.class,
                                    () -> admin.exists(Probe.key(name)), other.label() + " does not serve slot " + slot);
                            assertEquals(owner.address().getPort(), moved.getTargetNode().getPort());
                        }
                    }
                }
            } finally {
                lock.unlock();
            }
        }
        assertEquals(names.size(), slots.size(), "distinct slots");
    }

    @ParameterizedTest
    @MethodSource("names")
    void mutualExclusionBetweenTwoClients(String name) throws Exception {
        DistLock lockA = a.get(name);
        DistLock lockB = b.get(name);
        lockA.lock();
        assertFalse(supplyInThread(() -> lockB.tryLock()), "B must not get a lock A holds");
        assertFalse(supplyInThread(() -> lockB.tryLock(Duration.ofMillis(200), null)),
                "B must not get a lock A holds, even waiting");
        lockA.unlock();
        assertTrue(supplyInThread(() -> {
            boolean got = lockB.tryLock();
            if (got) {
                lockB.unlock();
            }
            return got;
        }), "B gets the lock once A released it");

        // Six threads in two clients race for the lock; no two may ever be inside at once.
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger maxInside = new AtomicInteger();
        int[] counter = {0};
        int threadsPerClient = 3;
        int rounds = 15;
        ExecutorService pool = Executors.newFixedThreadPool(2 * threadsPerClient);
        try {
            List<Future<?>> work = new ArrayList<>();
            for (DistLock lock : List.of(lockA, lockB)) {
                for (int t = 0; t < threadsPerClient; t++) {
                    work.add(pool.submit(() -> {
                        for (int r = 0; r < rounds; r++) {
                            lock.lock();
                            try {
                                maxInside.accumulateAndGet(inside.incrementAndGet(), Math::max);
                                int seen = counter[0];
                                Thread.onSpinWait();
                                counter[0] = seen + 1;
                                inside.decrementAndGet();
                            } finally {
                                lock.unlock();
                            }
                        }
                        return null;
                    }));
                }
            }
            for (Future<?> f : work) {
                f.get(30, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
            assertTrue(pool.awaitTermination(5, TimeUnit.SECONDS));
        }
        assertEquals(1, maxInside.get(), "never more than one holder inside");
        assertEquals(2 * threadsPerClient * rounds, counter[0], "no lost updates");
        try (Jedis admin = names.get(name).admin()) {
            assertFalse(admin.exists(Probe.key(name)), "released at the end");
        }
    }

    @ParameterizedTest
    @MethodSource("names")
    void reentrantWithHoldCounts(String name) throws Exception {
        DistLock lock = a.get(name);
        String field = a.clientId() + ":" + Thread.currentThread().getId();
        try (Jedis admin = names.get(name).admin()) {
            lock.lock();
            assertTrue(lock.tryLock(), "the holder takes its own lock again");
            lock.lock(Duration.ofSeconds(10));
            assertEquals("3", admin.hget(Probe.key(name), field), "hold count after three acquisitions");
            assertFalse(supplyInThread(() -> b.get(name).tryLock()), "another client is kept out");

            lock.unlock();
            assertEquals("2", admin.hget(Probe.key(name), field));
            lock.unlock();
            assertEquals("1", admin.hget(Probe.key(name), field));
            assertTrue(lock.isHeldByCurrentThread(), "still held with one hold left");
            assertFalse(supplyInThread(() -> b.get(name).tryLock()), "another client is still kept out");
            lock.unlock();
            assertFalse(lock.isHeldByCurrentThread());
            assertFalse(admin.exists(Probe.key(name)), "the last unlock deletes the hash");
        }
        assertThrows(IllegalMonitorStateException.class, lock::unlock, "one unlock too many");
    }

    @ParameterizedTest
    @MethodSource("names")
    void onlyTheOwnerMayUnlock(String name) throws Exception {
        DistLock lock = a.get(name);
        lock.lock();
        try {
            AtomicReference<Throwable> otherClient = new AtomicReference<>();
            runInThread(() -> {
                try {
                    b.get(name).unlock();
                } catch (Throwable t) {
                    otherClient.set(t);
                }
            });
            assertTrue(otherClient.get() instanceof IllegalMonitorStateException,
                    "another client's unlock must throw IllegalMonitorStateException, got " + otherClient.get());
            AtomicReference<Throwable> otherThread = new AtomicReference<>();
            runInThread(() -> {
                try {
                    lock.unlock();
                } catch (Throwable t) {
                    otherThread.set(t);
                }
            });
            assertTrue(otherThread.get() instanceof IllegalMonitorStateException,
                    "another thread of the same client must not unlock either, got " + otherThread.get());
            try (Jedis admin = names.get(name).admin()) {
                assertEquals("1", admin.hget(Probe.key(name), a.clientId() + ":" + Thread.currentThread().getId()),
                        "the holder's hold is untouched");
            }
            assertTrue(lock.isHeldByCurrentThread());
        } finally {
            lock.unlock();
        }
    }

    @ParameterizedTest
    @MethodSource("names")
    void watchdogKeepsTheLockPastItsTimeout(String name) throws Exception {
        DistLock lock = a.get(name);
        RedisNode owner = names.get(name);
        lock.lock();
        try (Jedis admin = owner.admin()) {
            long start = System.nanoTime();
            Duration hold = WATCHDOG.multipliedBy(3);
            while (System.nanoTime() - start < hold.toNanos()) {
                long pttl = admin.pttl(Probe.key(name));
                assertTrue(pttl > 0 && pttl <= WATCHDOG.toMillis(), "lease is live and bounded by the watchdog timeout: " + pttl);
                assertFalse(supplyInThread(() -> b.get(name).tryLock()), "a contender must not enter while renewed");
                Await.pause(Duration.ofMillis(100));
            }
            assertTrue(lock.isHeldByCurrentThread(), "still held after 3x the watchdog timeout");
            assertTrue(admin.exists(Probe.key(name)), "the hash is still there");
        } finally {
            lock.unlock();
        }
        assertTrue(supplyInThread(() -> {
            boolean got = b.get(name).tryLock();
            if (got) {
                b.get(name).unlock();
            }
            return got;
        }), "free after the unlock");
    }

    @ParameterizedTest
    @MethodSource("names")
    void waiterIsWokenByTheReleasePublish(String name) throws Exception {
        DistLock lockA = a.get(name);
        DistLock lockB = b.get(name);
        Duration lease = Duration.ofSeconds(10);
        String channel = Probe.channel(name);
        lockA.lock(lease);
        try (LockThread waiter = new LockThread("cluster-waiter")) {
            Future<Long> acquiredAt = waiter.submit(() -> {
                if (!lockB.tryLock(Duration.ofSeconds(20), null)) {
                    throw new AssertionError("B gave up waiting");
                }
                long acquired = System.nanoTime();
                lockB.unlock();
                return acquired;
            });
            // Asleep on the channel: Redis counts the subscription and the waiter is parked on its semaphore.
            Await.until("B subscribed to " + channel, Duration.ofSeconds(5), () -> subscribers(channel) == 1);
            Await.until("B parked", Duration.ofSeconds(5), () -> waiter.thread().getState() == Thread.State.TIMED_WAITING);
            Await.pause(Duration.ofMillis(100));
            long pttl;
            try (Jedis admin = names.get(name).admin()) {
                pttl = admin.pttl(Probe.key(name));
            }
            assertTrue(pttl > 5_000, "A's lease has long to run: " + pttl + " ms");
            String subscribedOn = subscriberNode(channel);
            long released = System.nanoTime();
            lockA.unlock();
            long woke = LockThread.get(acquiredAt, Duration.ofSeconds(5));
            Duration lag = Duration.ofNanos(woke - released);
            log.info("lock '{}' on {}: waiter subscribed via {}, woken {} ms after the release (holder's PTTL was {} ms)",
                    name, names.get(name).label(), subscribedOn, lag.toMillis(), pttl);
            assertTrue(lag.compareTo(Duration.ofMillis(1000)) < 0,
                    "the publish must wake the waiter well before the " + pttl + " ms PTTL; it took " + lag.toMillis() + " ms");
        }
        Await.until("B unsubscribed", Duration.ofSeconds(5), () -> b.subscribedChannels().isEmpty());
    }

    /** Subscribers of {@code channel} over all masters: classic pub/sub is per node, messages go to every node. */
    private long subscribers(String channel) {
        return RedisTraffic.subscribers(cluster.masters(), channel);
    }

    private String subscriberNode(String channel) {
        for (RedisNode node : cluster.masters()) {
            try (Jedis admin = node.admin()) {
                if (admin.pubsubNumSub(channel).getOrDefault(channel, 0L) > 0) {
                    return node.label();
                }
            }
        }
        return "(gone)";
    }

    /** Runs {@code call} on a fresh thread (lock ownership is per thread) and returns its result. */
    private static <T> T supplyInThread(Callable<T> call) throws Exception {
        try (LockThread thread = new LockThread("cluster-contender")) {
            return thread.call(call);
        }
    }

    private static void runInThread(Runnable task) throws Exception {
        supplyInThread(() -> {
            task.run();
            return null;
        });
    }

    /** Every lock, Jedis or test thread this class started has ended once the clients are closed. */
    static void assertNoLockstepThreadsLeft(Set<Thread> before) {
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
            if (t.isAlive() && !before.contains(t) && (n.startsWith("lockstep-") || n.contains("SentinelListener")
                    || n.startsWith("cluster-") || n.startsWith("sentinel-"))) {
                left.add(n);
            }
        }
        return left;
    }
}
