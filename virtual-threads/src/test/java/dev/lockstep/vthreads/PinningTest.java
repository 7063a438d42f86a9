package dev.lockstep.vthreads;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockstep.DistLock;
import dev.lockstep.LockOptions;
import dev.lockstep.Locks;
import dev.lockstep.testkit.fixture.SingleNodeTest;
import dev.lockstep.v5.PubSubLocks;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingStream;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.RedisClient;

/**
 * No virtual thread is pinned to its carrier inside lock code, as JFR sees it ({@code jdk.VirtualThreadPinned}).
 * On JDK 21 to 23 that catches a socket call made inside {@code synchronized}; from JDK 24 on
 * (JEP 491) {@code synchronized} no longer pins, and JFR reports only pins by native frames. The
 * contract's {@code talksToRedisWithoutHoldingAMonitor}, on every stage and any JDK, catches a
 * monitor held across a Redis call on its own.
 */
class PinningTest extends SingleNodeTest {

    @Test
    void waitersOnVirtualThreadsAreNeverPinnedInLockCode() throws Exception {
        List<String> pinned = new CopyOnWriteArrayList<>();
        List<String> anyPin = new CopyOnWriteArrayList<>();
        try (RecordingStream jfr = new RecordingStream();
             RedisClient redis = node.newClient();
             Locks locks = new PubSubLocks(redis, LockOptions.defaults())) {
            // Loading a class pins a virtual thread while it loads: a crowd first loads the lock code's classes, as
            // any earlier test in the JVM would have, so that what is recorded below is the lock code itself.
            crowd(locks, 20);
            jfr.enable("jdk.VirtualThreadPinned").withStackTrace().withThreshold(Duration.ZERO);
            jfr.onEvent("jdk.VirtualThreadPinned", event -> {
                anyPin.add(event.getThread() == null ? "?" : event.getThread().getJavaName());
                if (inLockCode(event)) {
                    pinned.add(describe(event));
                }
            });
            jfr.startAsync();
            crowd(locks, 500);
            // Events reach the stream a flush after they happen: wait for one.
            jfr.stop();
        }
        System.out.printf("JDK %s: %d pinned virtual threads seen, %d in lock code%n", Runtime.version(), anyPin.size(),
                pinned.size());
        assertEquals(List.of(), pinned);
    }

    /** {@code waiters} virtual threads take and release five locks, so that they queue, sleep and wake. */
    private static void crowd(Locks locks, int waiters) throws Exception {
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> all = new ArrayList<>();
            for (int i = 0; i < waiters; i++) {
                // Five names: channels join and leave a subscription already open, waiters queue and sleep.
                String name = "stock-" + i % 5;
                all.add(threads.submit(() -> {
                    DistLock lock = locks.get(name);
                    assertTrue(lock.tryLock(Duration.ofSeconds(60), null));
                    Thread.sleep(1);
                    lock.unlock();
                    return null;
                }));
            }
            for (Future<?> thread : all) {
                thread.get(120, TimeUnit.SECONDS);
            }
        }
    }

    private static boolean inLockCode(RecordedEvent event) {
        return event.getStackTrace() != null && event.getStackTrace().getFrames().stream()
                .anyMatch(frame -> frame.getMethod().getType().getName().startsWith("dev.lockstep."));
    }

    private static String describe(RecordedEvent event) {
        StringBuilder out = new StringBuilder("pinned for " + event.getDuration().toNanos() / 1_000 + " µs:");
        for (RecordedFrame frame : event.getStackTrace().getFrames()) {
            out.append("\n  at ").append(frame.getMethod().getType().getName()).append('.')
                    .append(frame.getMethod().getName()).append(':').append(frame.getLineNumber());
        }
        return out.toString();
    }
}
