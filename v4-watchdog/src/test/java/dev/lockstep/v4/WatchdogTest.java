package dev.lockstep.v4;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockstep.DistLock;
import dev.lockstep.LeaseLoss;
import dev.lockstep.LeaseLostException;
import dev.lockstep.LockOptions;
import dev.lockstep.testkit.client.Threads;
import dev.lockstep.testkit.fixture.Await;
import dev.lockstep.testkit.fixture.SingleNodeTest;
import dev.lockstep.testkit.watch.RedisTraffic;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.RedisClient;

/** The watchdog's own promises, beyond the scenarios: what renews, what stops, and what the holder is told. */
class WatchdogTest extends SingleNodeTest {

    private static final Duration TIMEOUT = Duration.ofMillis(300);
    private static final Duration BOUND = Duration.ofSeconds(5);

    private RedisClient redis;

    private WatchdogLocks client() {
        return client(TIMEOUT);
    }

    private WatchdogLocks client(Duration watchdogTimeout) {
        redis = closedAfter(node.newClient());
        return closedAfter(new WatchdogLocks(redis, LockOptions.defaults().withWatchdogTimeout(watchdogTimeout)));
    }

    @Test
    void aDefaultLeaseIsRenewedWhileHeld() throws InterruptedException {
        DistLock lock = client().get("renewed");
        lock.lock();
        Thread.sleep(TIMEOUT.multipliedBy(4).toMillis());
        assertTrue(lock.isHeldByCurrentThread());
        long pttl = redis.pttl("renewed");
        assertTrue(pttl > 0 && pttl <= TIMEOUT.toMillis(), "the lease should be renewed, pttl was " + pttl);
        lock.unlock();
        assertEquals(-2, redis.pttl("renewed"));
    }

    @Test
    void anExplicitLeaseIsNotRenewedAndItsEndIsSignalled() throws InterruptedException {
        DistLock lock = client().get("explicit");
        List<LeaseLoss> losses = new CopyOnWriteArrayList<>();
        lock.onLeaseLost(losses::add);
        lock.lock(TIMEOUT);
        Await.until("the key expires", BOUND, () -> redis.pttl("explicit") == -2);
        Await.until("the holder is told", BOUND, () -> !losses.isEmpty());
        assertFalse(lock.isHeldByCurrentThread());
        LeaseLostException e = assertThrows(LeaseLostException.class, lock::unlock);
        assertTrue(e.getMessage().contains("lost at"), e.getMessage());
        assertEquals(losses.get(0), e.loss(), "the exception carries the loss the listener heard of");
        Thread.sleep(TIMEOUT.toMillis());
        assertEquals(1, losses.size(), "a loss is signalled once");
    }

    @Test
    void aRenewalThatFindsTheFieldGoneStopsAndSignals() throws InterruptedException {
        // A lease ten times the others: on a loaded machine a renewal may come late, and this one must come before
        // the lease would run out, so that the loss is the field found gone.
        DistLock lock = client(TIMEOUT.multipliedBy(10)).get("deleted");
        List<LeaseLoss> losses = new CopyOnWriteArrayList<>();
        lock.onLeaseLost(losses::add);
        lock.lock();
        redis.del("deleted");
        Await.until("the next renewal notices", BOUND, () -> !losses.isEmpty());
        assertTrue(losses.get(0).lockName().equals("deleted"));
        assertFalse(lock.isHeldByCurrentThread());
        assertEquals("Redis no longer had this owner's field at renewal",
                assertThrows(LeaseLostException.class, lock::unlock).loss().reason());
    }

    @Test
    void theLastUnlockStopsRenewing() throws InterruptedException {
        WatchdogLocks locks = client();
        DistLock lock = locks.get("stopped");
        lock.lock();
        lock.lock();
        lock.unlock();
        Thread.sleep(TIMEOUT.toMillis());
        assertTrue(redis.pttl("stopped") > 0, "an inner unlock must keep renewing");
        lock.unlock();
        // A renewal already running when the unlock came may still reach Redis: count from once it has.
        long[] last = {scriptCalls()};
        Await.until("a renewal in flight at the unlock has landed", BOUND, () -> {
            long now = scriptCalls();
            boolean settled = now == last[0];
            last[0] = now;
            return settled;
        });
        long before = scriptCalls();
        Thread.sleep(TIMEOUT.multipliedBy(2).toMillis());
        assertEquals(before, scriptCalls(), "renewals went on after the last unlock");
    }

    @Test
    void oneWatchdogRenewsEveryLockOfAClient() throws InterruptedException {
        // A lease ten times the others': 50 renewals a round on one thread must not lose a lease when a loaded
        // 2-core machine holds that thread up for a few hundred ms (this test counts threads, not time).
        Duration lease = TIMEOUT.multipliedBy(10);
        WatchdogLocks locks = closedAfter(new WatchdogLocks(closedAfter(node.newClient()),
                LockOptions.defaults().withWatchdogTimeout(lease)));
        List<DistLock> held = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            DistLock lock = locks.get("many-" + i);
            lock.lock();
            held.add(lock);
        }
        // Past the first round of renewals, a third of the lease in.
        Thread.sleep(lease.dividedBy(3).plus(TIMEOUT).toMillis());
        String client = locks.clientId().substring(0, 8);
        assertEquals(1, Threads.named("lockstep-watchdog-" + client).size());
        assertEquals(1, Threads.named("lockstep-lease-clock-" + client).size());
        held.forEach(DistLock::unlock);
    }

    @Test
    void closeStopsRenewalAndTheLeaseRunsOut() {
        WatchdogLocks locks = client();
        locks.get("abandoned").lock();
        locks.close();
        Await.until("the abandoned lease runs out", BOUND, () -> redis.pttl("abandoned") == -2);
        String client = locks.clientId().substring(0, 8);
        Await.until("the watchdog threads end", BOUND, () -> Threads.named("lockstep-watchdog-" + client).isEmpty()
                && Threads.named("lockstep-lease-clock-" + client).isEmpty());
    }

    private long scriptCalls() {
        Map<String, Long> calls = RedisTraffic.commandstats(node);
        return calls.getOrDefault("evalsha", 0L) + calls.getOrDefault("eval", 0L);
    }
}
