package dev.lockstep.fair;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockstep.DistLock;
import dev.lockstep.LockOptions;
import dev.lockstep.testkit.client.ClientProcess;
import dev.lockstep.testkit.client.LockThread;
import dev.lockstep.testkit.fixture.Await;
import dev.lockstep.testkit.fixture.RedisFixture;
import dev.lockstep.testkit.fixture.RedisNode;
import dev.lockstep.testkit.scenario.ScenarioContext;
import dev.lockstep.testkit.stage.Stage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import redis.clients.jedis.UnifiedJedis;

/** Grants follow the queue in Redis across clients, and a waiter that died holds the queue up for its timeout at most. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FairnessTest {

    private static final int CLIENTS = 3;
    private static final int THREADS_PER_CLIENT = 3;
    private static final int ACQUISITIONS = 1_000;
    /** How much later than its deadline a dead waiter may be dropped: the next waiter's round trip, on a busy machine. */
    private static final Duration DROP_SLACK = Duration.ofMillis(500);

    private RedisFixture fixture;
    private RedisNode node;

    @BeforeAll
    void start() {
        fixture = RedisFixture.processes();
        node = fixture.start();
    }

    @AfterAll
    void stop() {
        fixture.close();
    }

    /**
     * Nine threads in three clients take one lock a thousand times. Each holder notes who queued
     * behind it, as Redis lists them; those must be the next holders, in that order: nobody who
     * asked later gets in first, whichever client is quicker.
     */
    @Test
    void grantsFollowTheQueueAcrossClients() throws Exception {
        String name = "turns";
        List<UnifiedJedis> connections = new ArrayList<>();
        List<FairLocks> clients = new ArrayList<>();
        List<String> holders = Collections.synchronizedList(new ArrayList<>());
        List<List<String>> queuedBehind = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger granted = new AtomicInteger();
        ExecutorService threads = Executors.newFixedThreadPool(CLIENTS * THREADS_PER_CLIENT);
        try (UnifiedJedis observer = node.newClient()) {
            List<Future<?>> done = new ArrayList<>();
            for (int c = 0; c < CLIENTS; c++) {
                UnifiedJedis redis = node.newClient();
                connections.add(redis);
                FairLocks client = new FairLocks(redis, LockOptions.defaults());
                clients.add(client);
                for (int t = 0; t < THREADS_PER_CLIENT; t++) {
                    done.add(threads.submit(() -> {
                        DistLock lock = client.get(name);
                        while (true) {
                            lock.lock();
                            try {
                                if (granted.incrementAndGet() > ACQUISITIONS) {
                                    return null;
                                }
                                // Both read while held, so no grant can slip between them.
                                holders.add(observer.hkeys(name).iterator().next());
                                queuedBehind.add(observer.lrange(FairKeys.queue(name), 0, -1));
                            } finally {
                                lock.unlock();
                            }
                        }
                    }));
                }
            }
            for (Future<?> thread : done) {
                LockThread.get(thread, Duration.ofSeconds(120));
            }
        } finally {
            threads.shutdownNow();
            clients.forEach(FairLocks::close);
            connections.forEach(UnifiedJedis::close);
        }
        assertEquals(ACQUISITIONS, holders.size());
        assertTrue(holders.stream().distinct().count() == CLIENTS * THREADS_PER_CLIENT, "every thread took turns");
        int checked = 0;
        for (int k = 0; k < holders.size(); k++) {
            List<String> queue = queuedBehind.get(k);
            for (int i = 0; i < queue.size() && k + 1 + i < holders.size(); i++) {
                assertEquals(queue.get(i), holders.get(k + 1 + i), "grant " + (k + 1 + i) + ": holder " + k
                        + " saw " + queue + " queued behind it, in that order");
                checked++;
            }
        }
        System.out.printf("FairnessTest: %d grants to %d threads of %d clients, %d places in the queue checked%n",
                holders.size(), CLIENTS * THREADS_PER_CLIENT, CLIENTS, checked);
        assertTrue(checked > ACQUISITIONS, "the threads queued behind the holders: " + checked + " places checked");
    }

    /**
     * A waiter in its own JVM queues first and is killed; the next waiter gets the free lock no later
     * than the dead one's deadline: its last request plus the waiter timeout.
     */
    @Test
    void aDeadWaiterHoldsTheQueueUpForItsTimeoutAtMost() throws Exception {
        String name = "dead-waiter";
        Duration waiterTimeout = FairLocks.DEFAULT_WAITER_TIMEOUT;
        try (ScenarioContext context = new ScenarioContext(new Stage("fair-lock", FairLocks.class), fixture);
             UnifiedJedis redis = context.node().newClient();
             FairLocks locks = new FairLocks(redis, LockOptions.defaults());
             LockThread holder = new LockThread("holder"); LockThread next = new LockThread("next")) {
            DistLock lock = locks.get(name);
            holder.run(lock::lock);
            ClientProcess doomed = context.process("dead", LockOptions.defaults());
            doomed.requestLock(name);
            Await.until("the doomed waiter queues", LockThread.DEADLINE, () -> redis.llen(FairKeys.queue(name)) == 1);
            Future<Long> in = next.submit(() -> lock.tryLock(Duration.ofSeconds(30), null) ? System.nanoTime() : -1L);
            Await.until("the next waiter queues behind it", LockThread.DEADLINE,
                    () -> redis.llen(FairKeys.queue(name)) == 2);
            long killed = System.nanoTime();
            doomed.kill();
            holder.run(lock::unlock);
            long acquiredAt = LockThread.get(in, Duration.ofSeconds(40));
            assertTrue(acquiredAt > 0, "the next waiter never got the lock");
            long heldUpMillis = TimeUnit.NANOSECONDS.toMillis(acquiredAt - killed);
            System.out.printf("FairnessTest: the dead waiter held the queue up for %d ms (waiter timeout %d ms)%n",
                    heldUpMillis, waiterTimeout.toMillis());
            assertTrue(heldUpMillis <= waiterTimeout.plus(DROP_SLACK).toMillis(), "the dead waiter held the queue up for "
                    + heldUpMillis + " ms, more than its " + waiterTimeout.toMillis() + " ms timeout");
            next.run(lock::unlock);
        }
    }
}
