package dev.lockstep.v5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockstep.DistLock;
import dev.lockstep.LockOptions;
import dev.lockstep.metrics.MicrometerLockObserver;
import dev.lockstep.testkit.client.LockThread;
import dev.lockstep.testkit.fixture.Await;
import dev.lockstep.testkit.fixture.SingleNodeTest;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/** One client's meters, read from a {@link SimpleMeterRegistry}, after it takes, waits, times out and loses a lease. */
class MetricsTest extends SingleNodeTest {

    private static final Duration WATCHDOG = Duration.ofMillis(300);

    @Test
    void theMetersCountTakesWaitsTimeoutsAndLostLeases() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        LockOptions options = LockOptions.defaults().withWatchdogTimeout(WATCHDOG)
                .withObserver(new MicrometerLockObserver(registry));
        PubSubLocks locks = closedAfter(new PubSubLocks(closedAfter(node.newClient()), options));
        DistLock lock = locks.get("metered");
        try (LockThread holder = new LockThread("holder"); LockThread waiter = new LockThread("waiter")) {
            holder.run(lock::lock);
            assertEquals(1, gauge(registry, "lockstep.lock.holds.active"));

            assertFalse(waiter.call(() -> lock.tryLock(Duration.ofMillis(200), null)), "took a held lock");
            assertEquals(1, count(registry, "timed_out"));
            assertTrue(timeMillis(registry, "timed_out") >= 200, "the timeout's wait was recorded");

            Future<Boolean> waited = waiter.submit(() -> lock.tryLock(Duration.ofSeconds(5), null));
            Await.until("the waiter listens on the release channel", LockThread.DEADLINE,
                    () -> gauge(registry, "lockstep.lock.subscriptions") == 1);
            holder.run(lock::unlock);
            assertTrue(LockThread.get(waited, LockThread.DEADLINE));
            assertEquals(2, count(registry, "acquired"));
            Await.until("the waiter stops listening", LockThread.DEADLINE,
                    () -> gauge(registry, "lockstep.lock.subscriptions") == 0);

            try (Jedis admin = node.admin()) {
                admin.del("metered");
            }
            Await.until("the next renewal finds the lock gone", LockThread.DEADLINE,
                    () -> registry.counter("lockstep.lock.lease.lost").count() == 1);
            assertFalse(waiter.call(lock::isHeldByCurrentThread));
            waiter.run(() -> {
                try {
                    lock.unlock();
                } catch (IllegalMonitorStateException expected) {
                    // The lease was lost: the unlock says so, and ends the hold all the same.
                }
            });
            assertEquals(0, gauge(registry, "lockstep.lock.holds.active"));
        }
    }

    private static double gauge(SimpleMeterRegistry registry, String name) {
        return registry.get(name).gauge().value();
    }

    private static long count(SimpleMeterRegistry registry, String outcome) {
        return registry.get("lockstep.lock.acquire").tag("outcome", outcome).timer().count();
    }

    private static double timeMillis(SimpleMeterRegistry registry, String outcome) {
        return registry.get("lockstep.lock.acquire").tag("outcome", outcome).timer().totalTime(TimeUnit.MILLISECONDS);
    }
}
