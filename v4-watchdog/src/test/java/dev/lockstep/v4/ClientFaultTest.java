package dev.lockstep.v4;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockstep.DistLock;
import dev.lockstep.LeaseLoss;
import dev.lockstep.LockOptions;
import dev.lockstep.testkit.fixture.Await;
import dev.lockstep.testkit.fixture.SingleNodeTest;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.RedisClient;

/**
 * Faults on the client's side of the wire that the watchdog would otherwise make permanent: a
 * hold declared lost but still in Redis, a holder thread that dies, and a slow lease-loss
 * listener. (A client closed while its lock script runs is in the contract suite, for every
 * stage with a watchdog.)
 */
class ClientFaultTest extends SingleNodeTest {

    private static final Duration TIMEOUT = Duration.ofMillis(600);
    private static final Duration BOUND = Duration.ofSeconds(10);

    private WatchdogLocks client() {
        RedisClient redis = closedAfter(node.newClient());
        return closedAfter(new WatchdogLocks(redis, LockOptions.defaults().withWatchdogTimeout(TIMEOUT)));
    }

    @Test
    void aLockAfterALossSignalStartsAFreshHoldThatOneUnlockEnds() throws Exception {
        WatchdogLocks locks = client();
        DistLock lock = locks.get("declared-lost");
        List<LeaseLoss> losses = new CopyOnWriteArrayList<>();
        lock.onLeaseLost(losses::add);
        lock.lock(TIMEOUT);
        Await.until("the holder is told its lease ran out", BOUND, () -> !losses.isEmpty());
        try (Jedis admin = node.admin()) {
            // Redis keeps the field longer than the holder believed (its clock ran fast): the window the lock falls into.
            assertEquals(1, admin.pexpire("declared-lost", BOUND.toMillis()));
            lock.lock();
            assertEquals("1", admin.hvals("declared-lost").get(0), "the old hold was counted on");
            lock.unlock();
            assertFalse(admin.exists("declared-lost"), "one lock() and one unlock() left a hold behind");
        }
    }

    @Test
    void aThreadThatDiesHoldingALockLosesItAndTheLeaseRunsOut() throws Exception {
        WatchdogLocks locks = client();
        DistLock lock = locks.get("orphaned");
        List<LeaseLoss> losses = new CopyOnWriteArrayList<>();
        lock.onLeaseLost(losses::add);
        Thread holder = new Thread(lock::lock, "dies-holding");
        holder.start();
        holder.join(BOUND.toMillis());
        Await.until("the holder's death is signalled", BOUND, () -> !losses.isEmpty());
        assertTrue(losses.get(0).reason().contains("ended"), losses.get(0).reason());
        assertEquals(holder.getId(), losses.get(0).threadId());
        DistLock other = client().get("orphaned");
        assertTrue(other.tryLock(TIMEOUT.multipliedBy(2), null), "a dead thread's lock was still renewed");
        other.unlock();
    }

    @Test
    void aSlowListenerDelaysNoOtherHoldsRenewal() throws Exception {
        WatchdogLocks locks = client();
        DistLock doomed = locks.get("doomed");
        DistLock kept = locks.get("kept");
        CountDownLatch listening = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        doomed.onLeaseLost(loss -> {
            listening.countDown();
            try {
                release.await(BOUND.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        doomed.lock();
        kept.lock();
        try (Jedis admin = node.admin()) {
            admin.del("doomed");
            assertTrue(listening.await(BOUND.toMillis(), TimeUnit.MILLISECONDS), "the loss was never signalled");
            // The listener is stuck; three leases later the other hold must still be renewed.
            long until = System.nanoTime() + TIMEOUT.multipliedBy(3).toNanos();
            while (System.nanoTime() < until) {
                assertTrue(admin.pttl("kept") > 0, "the stuck listener let another lock's lease run out");
                Thread.sleep(20);
            }
            assertTrue(kept.isHeldByCurrentThread());
        } finally {
            release.countDown();
        }
        kept.unlock();
    }
}
