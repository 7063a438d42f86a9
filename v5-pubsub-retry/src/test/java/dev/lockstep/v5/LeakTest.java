package dev.lockstep.v5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockstep.DistLock;
import dev.lockstep.LockOptions;
import dev.lockstep.testkit.RedisFixture;
import dev.lockstep.testkit.RedisNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.RedisClient;

/**
 * A v5 client subscribes a channel per contended lock and starts a subscriber thread while
 * anyone waits; both must go again. A library that leaks here is fine in a unit test and dies in
 * production after a week: one forgotten channel per contended name grows without bound, and a
 * thread that never ends keeps its connection too.
 *
 * <p>Two clients, three threads each, run 10,000 lock/unlock cycles over 500 names. Consecutive
 * cycles share a name, so all six threads crowd onto the same lock at once: nearly every
 * acquisition waits, subscribing and unsubscribing the channel over and over. One cycle in five
 * is a {@code tryLock} with a 1 ms wait, which mostly gives up mid-wait: leaving a channel
 * without the lock must not leak either. Afterwards, once idle: no channel subscribed in either
 * client nor on the server, no lock key left, and after closing the clients every thread they
 * started has ended.
 */
class LeakTest {

    private static final int CYCLES = 10_000;
    private static final int NAMES = 500;
    private static final int THREADS_PER_CLIENT = 3;
    private static final Duration RUN_LIMIT = Duration.ofSeconds(60);
    private static final Duration SETTLE = Duration.ofSeconds(10);

    private static RedisFixture fixture;
    private static RedisNode node;

    @BeforeAll
    static void startRedis() throws Exception {
        fixture = RedisFixture.processes();
        node = fixture.start();
        WakeUpTest.warmScripts(node);
    }

    @AfterAll
    static void stopRedis() {
        if (fixture != null) {
            fixture.close();
        }
    }

    @Test
    void tenThousandContendedCyclesLeaveNoSubscriptionKeyOrThreadBehind() throws Exception {
        Set<Thread> threadsBefore = liveThreads();
        RedisClient redisA = node.newClient();
        RedisClient redisB = node.newClient();
        PubSubLocks clientA = new PubSubLocks(redisA, LockOptions.defaults());
        PubSubLocks clientB = new PubSubLocks(redisB, LockOptions.defaults());
        List<PubSubLocks> clients = List.of(clientA, clientB);
        int threads = THREADS_PER_CLIENT * clients.size();

        AtomicInteger tickets = new AtomicInteger();
        AtomicInteger[] inside = new AtomicInteger[NAMES];
        for (int i = 0; i < NAMES; i++) {
            inside[i] = new AtomicInteger();
        }
        AtomicLong acquired = new AtomicLong();
        AtomicLong gaveUp = new AtomicLong();
        AtomicLong overlaps = new AtomicLong();
        long runsBefore = Probe.scriptRuns(node);
        long started = System.nanoTime();
        ExecutorService workers = Executors.newFixedThreadPool(threads, task -> new Thread(task, "v5-leak-worker"));
        List<Future<?>> done = new ArrayList<>();
        for (int w = 0; w < threads; w++) {
            PubSubLocks client = clients.get(w % clients.size());
            done.add(workers.submit(() -> {
                for (int t = tickets.getAndIncrement(); t < CYCLES; t = tickets.getAndIncrement()) {
                    // Tickets taken together share a name: every thread crowds onto the same lock.
                    int n = (t / threads) % NAMES;
                    DistLock lock = client.get("leak-" + n);
                    if (t % 5 == 0) {
                        if (!lock.tryLock(Duration.ofMillis(1), null)) {
                            gaveUp.incrementAndGet();
                            continue;
                        }
                    } else {
                        lock.lock();
                    }
                    try {
                        acquired.incrementAndGet();
                        if (inside[n].incrementAndGet() != 1) {
                            overlaps.incrementAndGet();
                        }
                        LockSupport.parkNanos(100_000); // a short critical section
                        inside[n].decrementAndGet();
                    } finally {
                        lock.unlock();
                    }
                }
                return null;
            }));
        }
        workers.shutdown();
        try {
            assertTrue(workers.awaitTermination(RUN_LIMIT.toSeconds(), TimeUnit.SECONDS),
                    () -> "the cycles did not finish within " + RUN_LIMIT + " (" + tickets.get() + " tickets taken); "
                            + "the workers are at:\n" + stacksOf("v5-leak-worker"));
            for (Future<?> worker : done) {
                LockThread.get(worker, SETTLE);
            }
        } finally {
            workers.shutdownNow();
        }
        long elapsed = System.nanoTime() - started;
        long runs = Probe.scriptRuns(node) - runsBefore;
        System.out.printf("LeakTest: %d cycles (%d acquired, %d gave up) in %d ms, %.1f script runs per acquisition%n",
                CYCLES, acquired.get(), gaveUp.get(), TimeUnit.NANOSECONDS.toMillis(elapsed),
                (double) runs / acquired.get());
        assertEquals(0, overlaps.get(), "two threads were inside the same lock at once");
        assertEquals(CYCLES, acquired.get() + gaveUp.get());

        // Idle now: neither client listens to anything, and the server agrees.
        Probe.eventually("client A still listens once idle", SETTLE, clientA::subscribedChannels, Set::isEmpty);
        Probe.eventually("client B still listens once idle", SETTLE, clientB::subscribedChannels, Set::isEmpty);
        Probe.eventually("the server still has subscriptions once both clients are idle", SETTLE,
                () -> Probe.serverChannels(node), Set::isEmpty);
        try (Jedis admin = node.admin()) {
            assertEquals(Set.of(), admin.keys("{leak-*"), "lock keys outlived their last unlock");
        }

        clientA.close();
        clientB.close();
        redisA.close();
        redisB.close();
        Probe.eventually("the server still has subscriptions after both clients closed", SETTLE,
                () -> Probe.serverChannels(node), Set::isEmpty);
        // Subscriber, watchdog and worker threads all end: the JVM is back to the threads it had.
        Probe.eventually("threads outlived the clients", SETTLE, () -> extraThreads(threadsBefore),
                extra -> liveThreads().size() <= threadsBefore.size());
    }

    /** Where the threads called {@code name} are, for a failure that would otherwise just say "too slow". */
    private static String stacksOf(String name) {
        StringBuilder dump = new StringBuilder();
        Thread.getAllStackTraces().forEach((thread, stack) -> {
            if (thread.getName().equals(name)) {
                dump.append(thread).append('\n');
                for (StackTraceElement frame : stack) {
                    dump.append("    at ").append(frame).append('\n');
                }
            }
        });
        return dump.toString();
    }

    private static Set<Thread> liveThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive).collect(Collectors.toSet());
    }

    /** The names of live threads that were not there before: what leaked, for the failure message. */
    private static List<String> extraThreads(Set<Thread> before) {
        return liveThreads().stream().filter(t -> !before.contains(t)).map(Thread::getName).sorted().toList();
    }
}
