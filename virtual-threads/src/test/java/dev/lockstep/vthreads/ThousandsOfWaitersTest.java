package dev.lockstep.vthreads;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockstep.DistLock;
import dev.lockstep.LockOptions;
import dev.lockstep.Locks;
import dev.lockstep.testkit.client.Threads;
import dev.lockstep.testkit.fixture.Await;
import dev.lockstep.testkit.fixture.SingleNodeTest;
import dev.lockstep.v5.PubSubLocks;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.RedisClient;

/**
 * Stage 5 under the load a virtual-thread service puts on it: ten thousand threads that each take
 * a lock once, on one lock and spread over a thousand. Blocking is cheap for a virtual thread; the
 * real limit is the client's connection pool, which every thread shares: the server never sees more
 * than the pool's {@value #POOL} connections open at once, the pub/sub connection included. (The pool
 * may open more than {@value #POOL} over a run: a subscription's connection is closed when the
 * subscription ends, or cut when a heartbeat goes unanswered, and the pool opens another.)
 */
class ThousandsOfWaitersTest extends SingleNodeTest {

    private static final int THREADS = 10_000;
    /** Jedis's default pool size: the connections a client may open, whatever the number of threads. */
    private static final int POOL = 8;
    private static final Duration BOUNDED = Duration.ofSeconds(120);

    private RedisClient redis;
    private Locks locks;

    @BeforeEach
    void open() {
        redis = node.newClient();
        locks = new PubSubLocks(redis, LockOptions.defaults());
    }

    @AfterEach
    void closeAndCheckNothingIsLeft() {
        locks.close();
        redis.close();
        try (Jedis admin = node.admin()) {
            Await.until("no pub/sub channel left", Duration.ofSeconds(10), () -> admin.pubsubChannels().isEmpty());
            assertEquals(0, admin.dbSize(), "keys left behind");
        }
        Await.until("no lockstep thread left", Duration.ofSeconds(10), () -> Threads.named("lockstep-").isEmpty());
    }

    @Test
    void tenThousandVirtualThreadsTakeOneLockInTurn() throws Exception {
        everyThreadLocksOnce("took one lock in turn", i -> "stock");
    }

    @Test
    void tenThousandVirtualThreadsOverAThousandLocks() throws Exception {
        everyThreadLocksOnce("took 1,000 locks", i -> "stock-" + i % 1_000);
    }

    @Test
    void aWaitingVirtualThreadCostsAFewKilobytes() throws Exception {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        DistLock held = locks.get("stock");
        assertTrue(held.tryLock(Duration.ZERO, null));
        long before = heapAfterGc(memory);
        CountDownLatch asking = new CountDownLatch(THREADS);
        List<Future<Boolean>> waiters = new ArrayList<>();
        try (PeakConnections connections = new PeakConnections(node);
                ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < THREADS; i++) {
                waiters.add(threads.submit(() -> {
                    asking.countDown();
                    DistLock lock = locks.get("stock");
                    if (lock.tryLock(BOUNDED, null)) {
                        lock.unlock();
                        return true;
                    }
                    return false;
                }));
            }
            assertTrue(asking.await(BOUNDED.toSeconds(), TimeUnit.SECONDS));
            long waiting = heapAfterGc(memory);
            long perThread = (waiting - before) / THREADS;
            System.out.printf("%,d virtual threads waiting for one lock: %,d bytes of heap each%n", THREADS, perThread);
            held.unlock();
            for (Future<Boolean> waiter : waiters) {
                assertTrue(waiter.get(BOUNDED.toSeconds(), TimeUnit.SECONDS));
            }
            // A platform thread reserves its whole stack (1 MB by default); a parked virtual thread keeps its frames on the heap.
            assertTrue(perThread < 64 * 1024, perThread + " bytes per waiting thread");
            connections.assertAtMost(POOL);
        }
    }

    /** Each of {@link #THREADS} virtual threads takes {@code name.of(i)} once, with the holders counted. */
    private void everyThreadLocksOnce(String story, LockName name) throws Exception {
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger crowded = new AtomicInteger();
        AtomicInteger done = new AtomicInteger();
        long start = System.nanoTime();
        try (PeakConnections connections = new PeakConnections(node);
                ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> all = new ArrayList<>();
            for (int i = 0; i < THREADS; i++) {
                String lockName = name.of(i);
                all.add(threads.submit(() -> {
                    DistLock lock = locks.get(lockName);
                    assertTrue(lock.tryLock(BOUNDED, null), "no lock within " + BOUNDED);
                    try {
                        // One lock name: at most one holder at a time.
                        if (lockName.equals("stock") && inside.incrementAndGet() > 1) {
                            crowded.incrementAndGet();
                        }
                        done.incrementAndGet();
                    } finally {
                        if (lockName.equals("stock")) {
                            inside.decrementAndGet();
                        }
                        lock.unlock();
                    }
                    return null;
                }));
            }
            for (Future<?> thread : all) {
                thread.get(BOUNDED.toSeconds(), TimeUnit.SECONDS);
            }
            System.out.printf("%,d virtual threads %s in %,d ms, over at most %d connections at once%n", THREADS, story,
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start), connections.peak());
            connections.assertAtMost(POOL);
        }
        assertEquals(THREADS, done.get());
        assertEquals(0, crowded.get(), "two holders inside one lock at once");
    }

    /** Bytes of heap in use after a full collection. */
    private static long heapAfterGc(MemoryMXBean memory) {
        System.gc();
        return memory.getHeapMemoryUsage().getUsed();
    }

    @FunctionalInterface
    private interface LockName {

        String of(int thread);
    }
}
