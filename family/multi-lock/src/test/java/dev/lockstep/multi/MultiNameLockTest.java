package dev.lockstep.multi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockstep.DistLock;
import dev.lockstep.LeaseLoss;
import dev.lockstep.LockOptions;
import dev.lockstep.testkit.client.LockThread;
import dev.lockstep.testkit.fixture.Await;
import dev.lockstep.testkit.fixture.SingleNodeTest;
import dev.lockstep.v5.PubSubLocks;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/** The lock over stage 5's locks, on one real Redis: held only as a whole, given back as a whole, never deadlocked. */
class MultiNameLockTest extends SingleNodeTest {

    private static final LockOptions OPTIONS = LockOptions.defaults()
            .withWatchdogTimeout(Duration.ofMillis(600)).withSpinInterval(Duration.ofMillis(20));
    private static final Duration BOUND = Duration.ofSeconds(5);

    private PubSubLocks client() {
        return closedAfter(new PubSubLocks(closedAfter(node.newClient()), OPTIONS));
    }

    private static Map<String, String> hash(String key) {
        try (Jedis admin = node.admin()) {
            return admin.hgetAll(key);
        }
    }

    @Test
    void thePartsAreTakenInNameOrderWhateverOrderTheCallerGives() {
        PubSubLocks locks = client();
        MultiNameLock whole = new MultiNameLock(locks.get("payment"), locks.get("inventory"), locks.get("order"));
        assertEquals(List.of("inventory", "order", "payment"), whole.parts().stream().map(DistLock::name).toList());
        assertEquals("inventory+order+payment", whole.name());
    }

    @Test
    void partsOnThreeClientsAreHeldAsOneAndReleasedAsOne() {
        PubSubLocks inventoryClient = client();
        PubSubLocks orderClient = client();
        PubSubLocks paymentClient = client();
        MultiNameLock whole = new MultiNameLock(inventoryClient.get("inventory:lock"), orderClient.get("order:lock"),
                paymentClient.get("payment:lock"));
        whole.lock();
        try {
            assertTrue(whole.isHeldByCurrentThread());
            assertEquals(1, whole.holdCount());
            for (String key : List.of("inventory:lock", "order:lock", "payment:lock")) {
                assertEquals(1, hash(key).size(), key + " holds one field: " + hash(key));
            }
        } finally {
            whole.unlock();
        }
        assertFalse(whole.isLocked());
        assertEquals(Map.of(), hash("inventory:lock"));
    }

    @Test
    void aPartHeldElsewhereLeavesNothingHeld() throws Exception {
        PubSubLocks ours = client();
        PubSubLocks theirs = client();
        try (LockThread holder = new LockThread("holder")) {
            holder.run(() -> theirs.get("second").lock());
            MultiNameLock whole = new MultiNameLock(ours.get("first"), ours.get("second"));
            assertFalse(whole.tryLock(Duration.ofMillis(200), null), "the second part is held elsewhere");
            assertEquals(Map.of(), hash("first"), "the first part, taken on the way, is given back");
            assertFalse(ours.get("first").isHeldByCurrentThread());
            holder.run(() -> theirs.get("second").unlock());
        }
    }

    @Test
    void anInterruptWhileWaitingForALaterPartGivesBackTheEarlierOnes() throws Exception {
        PubSubLocks ours = client();
        PubSubLocks theirs = client();
        try (LockThread holder = new LockThread("holder"); LockThread waiter = new LockThread("waiter")) {
            holder.run(() -> theirs.get("later").lock());
            MultiNameLock whole = new MultiNameLock(ours.get("later"), ours.get("earlier"));
            Future<Object> waiting = waiter.submit(() -> {
                whole.lockInterruptibly();
                return null;
            });
            Await.until("the waiter holds the earlier part and waits for the later", BOUND,
                    () -> hash("earlier").size() == 1 && waiter.thread().getState() == Thread.State.TIMED_WAITING);
            waiter.thread().interrupt();
            assertThrows(InterruptedException.class, () -> LockThread.get(waiting, BOUND));
            assertFalse(waiter.call(whole::isHeldByCurrentThread));
            // On a virtual thread the interrupt may instead close the socket under the next round's take of the
            // earlier part: that grant's outcome is unknown, and the client's give-back thread undoes it soon after.
            Await.until("the earlier part is given back", BOUND, () -> hash("earlier").isEmpty());
            holder.run(() -> theirs.get("later").unlock());
        }
    }

    @Test
    void oppositeOrdersNeverDeadlockAndNeverOverlap() throws Exception {
        PubSubLocks a = client();
        PubSubLocks b = client();
        MultiNameLock aWhole = new MultiNameLock(a.get("x"), a.get("y"));
        MultiNameLock bWhole = new MultiNameLock(b.get("y"), b.get("x"));
        Sections sections = new Sections();
        try (LockThread aThread = new LockThread("a"); LockThread bThread = new LockThread("b")) {
            List<Future<Object>> runs = List.of(
                    aThread.submit(() -> sections.play("a", 25, aWhole::lock, aWhole::unlock)),
                    bThread.submit(() -> sections.play("b", 25, bWhole::lock, bWhole::unlock)));
            sections.start();
            for (Future<Object> run : runs) {
                LockThread.get(run, LockThread.DEADLINE);
            }
        }
        assertEquals(List.of(), sections.overlaps());
        assertEquals(Map.of(), hash("x"));
        assertEquals(Map.of(), hash("y"));
    }

    @Test
    void aReentryHoldsEveryPartOnceMore() {
        PubSubLocks locks = client();
        MultiNameLock whole = new MultiNameLock(locks.get("r1"), locks.get("r2"));
        whole.lock();
        whole.lock();
        assertEquals(2, whole.holdCount());
        whole.unlock();
        assertTrue(whole.isHeldByCurrentThread());
        whole.unlock();
        assertFalse(whole.isHeldByCurrentThread());
        assertEquals(Map.of(), hash("r1"));
        assertThrows(IllegalMonitorStateException.class, whole::unlock, "one unlock too many");
    }

    @Test
    void aPartsLostLeaseIsTheWholesLoss() {
        PubSubLocks locks = client();
        MultiNameLock whole = new MultiNameLock(locks.get("l1"), locks.get("l2"));
        List<LeaseLoss> losses = new CopyOnWriteArrayList<>();
        whole.onLeaseLost(losses::add);
        whole.lock(Duration.ofMillis(200));
        Await.until("both parts' losses are heard", BOUND, () -> losses.size() == 2);
        assertFalse(whole.isHeldByCurrentThread());
        assertThrows(IllegalMonitorStateException.class, whole::unlock);
    }

    @Test
    void aFailureOnALaterPartGivesBackTheEarlierOnes() {
        PubSubLocks open = client();
        PubSubLocks closed = client();
        MultiNameLock whole = new MultiNameLock(open.get("f1"), closed.get("f2"));
        closed.close();
        assertThrows(IllegalStateException.class, whole::lock, "the second part's client is closed");
        assertEquals(Map.of(), hash("f1"), "the first part, taken on the way, is given back");
        assertFalse(open.get("f1").isHeldByCurrentThread());
    }

    @Test
    void anUnlockEndsEveryPartEvenWhenOneFails() {
        PubSubLocks staying = client();
        PubSubLocks closing = client();
        MultiNameLock whole = new MultiNameLock(staying.get("u1"), closing.get("u2"));
        whole.lock();
        closing.close();
        assertThrows(IllegalStateException.class, whole::unlock, "the second part's client is closed");
        assertEquals(Map.of(), hash("u1"), "the other part is released all the same");
    }

    @Test
    void lockTakesEveryPartDespiteAnInterruptAndKeepsIt() {
        PubSubLocks locks = client();
        MultiNameLock whole = new MultiNameLock(locks.get("i1"), locks.get("i2"));
        Thread.currentThread().interrupt();
        try {
            whole.lock();
            assertTrue(Thread.currentThread().isInterrupted(), "lock() leaves the interrupt for the caller");
        } finally {
            Thread.interrupted();
        }
        assertTrue(whole.isHeldByCurrentThread());
        whole.unlock();
    }

    @Test
    void othersSeeTheWholeLockedAndCanForceItOpen() throws Exception {
        PubSubLocks ours = client();
        PubSubLocks admin = client();
        MultiNameLock held = new MultiNameLock(ours.get("o1"), ours.get("o2"));
        MultiNameLock seen = new MultiNameLock(admin.get("o1"), admin.get("o2"));
        try (LockThread holder = new LockThread("holder")) {
            holder.run(held::lock);
            assertTrue(seen.isLocked());
            assertTrue(seen.remainingLease().compareTo(Duration.ZERO) > 0, "lease left: " + seen.remainingLease());
            assertTrue(seen.forceUnlock());
            assertFalse(seen.isLocked());
            assertEquals(Map.of(), hash("o1"));
        }
    }

    @Test
    void badPartsAreRefusedAtTheCallNamingThem() {
        PubSubLocks locks = client();
        DistLock one = locks.get("one");
        assertTrue(assertThrows(IllegalArgumentException.class, MultiNameLock::new).getMessage().contains("parts"));
        assertTrue(assertThrows(NullPointerException.class, () -> new MultiNameLock(one, null)).getMessage()
                .contains("parts"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new MultiNameLock(one, one)).getMessage()
                .contains("parts"));
        MultiNameLock whole = new MultiNameLock(one);
        assertThrows(NullPointerException.class, () -> whole.tryLock(null, null));
        assertThrows(IllegalArgumentException.class, () -> whole.tryLock(Duration.ofMillis(-1), null));
    }
}
