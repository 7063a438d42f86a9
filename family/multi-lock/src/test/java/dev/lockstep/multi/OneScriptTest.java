package dev.lockstep.multi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockstep.DistLock;
import dev.lockstep.LockOptions;
import dev.lockstep.multi.internal.NameGroupLock;
import dev.lockstep.testkit.client.LockThread;
import dev.lockstep.testkit.fixture.Await;
import dev.lockstep.testkit.fixture.SingleNodeTest;
import dev.lockstep.v5.PubSubLocks;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/** {@link MultiNameLocks#getAll}: the names of one server taken, renewed and given back in one script each. */
class OneScriptTest extends SingleNodeTest {

    private static final LockOptions OPTIONS = LockOptions.defaults()
            .withWatchdogTimeout(Duration.ofMillis(600)).withSpinInterval(Duration.ofMillis(20));

    private MultiNameLocks client() {
        return client(OPTIONS);
    }

    private MultiNameLocks client(LockOptions options) {
        return closedAfter(new MultiNameLocks(closedAfter(node.newClient()), options));
    }

    private static Map<String, String> hash(String key) {
        try (Jedis admin = node.admin()) {
            return admin.hgetAll(key);
        }
    }

    /** How many scripts this server has been sent so far: EVAL and EVALSHA calls. */
    private static long scriptCalls() {
        try (Jedis admin = node.admin()) {
            long calls = 0;
            for (String line : admin.info("commandstats").split("\\R")) {
                if (line.startsWith("cmdstat_evalsha:") || line.startsWith("cmdstat_eval:")) {
                    calls += Long.parseLong(line.replaceAll("^[^:]*:calls=(\\d+),.*", "$1"));
                }
            }
            return calls;
        }
    }

    @Test
    void threeNamesAreTakenInOneScriptAndGivenBackInOne() {
        // The default lease: no renewal script falls between the lock and the unlock, however slow the machine.
        MultiNameLocks locks = client(LockOptions.defaults());
        DistLock whole = locks.getAll("payment", "inventory", "order");
        assertInstanceOf(NameGroupLock.class, whole, "one server: one lock over all three");
        assertEquals("inventory+order+payment", whole.name());
        whole.lock();
        whole.unlock();
        long before = scriptCalls();
        whole.lock();
        try {
            for (String key : List.of("inventory", "order", "payment")) {
                assertEquals(1, hash(key).size(), key + " holds one field: " + hash(key));
            }
        } finally {
            whole.unlock();
        }
        assertEquals(2, scriptCalls() - before, "one script to take all three, one to give them back");
        assertEquals(Map.of(), hash("inventory"));
        assertFalse(whole.isLocked());
    }

    @Test
    void aNameHeldElsewhereStopsTheWholeAndNothingIsWritten() throws Exception {
        MultiNameLocks ours = client();
        PubSubLocks theirs = closedAfter(new PubSubLocks(closedAfter(node.newClient()), OPTIONS));
        try (LockThread holder = new LockThread("holder")) {
            holder.run(() -> theirs.get("order").lock());
            DistLock whole = ours.getAll("inventory", "order");
            assertFalse(whole.tryLock(Duration.ofMillis(100), null));
            assertEquals(Map.of(), hash("inventory"), "nothing was taken on the way");
            holder.run(() -> theirs.get("order").unlock());
        }
    }

    @Test
    void aWaiterStoppedBySecondNameWakesWhenThatNameIsReleased() throws Exception {
        MultiNameLocks ours = client();
        PubSubLocks theirs = closedAfter(new PubSubLocks(closedAfter(node.newClient()),
                LockOptions.defaults().withWatchdogTimeout(Duration.ofSeconds(30))));
        try (LockThread holder = new LockThread("holder"); LockThread waiter = new LockThread("waiter")) {
            holder.run(() -> theirs.get("order").lock());
            DistLock whole = ours.getAll("inventory", "order");
            Future<Boolean> taken = waiter.submit(() -> whole.tryLock(Duration.ofSeconds(20), null));
            Await.until("the waiter sleeps on order's channel", Duration.ofSeconds(5),
                    () -> ours.waitedChannels().contains("redisson_lock__channel:{order}"));
            long released = System.nanoTime();
            holder.run(() -> theirs.get("order").unlock());
            assertTrue(LockThread.get(taken, Duration.ofSeconds(5)));
            long wokeMs = (System.nanoTime() - released) / 1_000_000;
            assertTrue(wokeMs < 5_000, "woke by the release, not by order's 30 s lease: " + wokeMs + " ms");
            waiter.run(whole::unlock);
        }
    }

    @Test
    void aThreadHoldingTheWholeMayTakeOneOfItsNamesAloneAndTheCountsAddUp() {
        MultiNameLocks locks = client();
        DistLock whole = locks.getAll("inventory", "order");
        DistLock inventory = locks.get("inventory");
        whole.lock();
        inventory.lock();
        assertEquals("2", hash("inventory").values().iterator().next(), "two holds of inventory: the whole's and its own");
        inventory.unlock();
        assertEquals("1", hash("inventory").values().iterator().next());
        assertTrue(whole.isHeldByCurrentThread());
        whole.unlock();
        assertEquals(Map.of(), hash("inventory"));
        assertEquals(Map.of(), hash("order"));
    }

    @Test
    void theWatchdogRenewsEveryNameAsOneHold() {
        MultiNameLocks locks = client();
        DistLock whole = locks.getAll("inventory", "order");
        whole.lock();
        try {
            Await.pause(OPTIONS.watchdogTimeout().multipliedBy(3));
            assertTrue(whole.isHeldByCurrentThread(), "renewed past three leases");
            try (Jedis admin = node.admin()) {
                assertTrue(admin.pttl("inventory") > 0 && admin.pttl("order") > 0);
            }
        } finally {
            whole.unlock();
        }
    }

    @Test
    void oneNameIsStageFivesLockInOneScript() {
        MultiNameLocks locks = client();
        assertEquals(List.of("solo"), ((NameGroupLock) locks.getAll("solo")).names());
        assertTrue(locks.getAll("solo") == locks.get("solo"), "the same lock object");
    }

    @Test
    void badNamesAreRefusedAtTheCall() {
        MultiNameLocks locks = client();
        assertThrows(NullPointerException.class, () -> locks.getAll((String[]) null));
        assertEquals("names must hold at least one name, was empty",
                assertThrows(IllegalArgumentException.class, locks::getAll).getMessage());
        assertThrows(IllegalArgumentException.class, () -> locks.getAll("a", "a"));
        assertThrows(NullPointerException.class, () -> locks.getAll("a", null));
        assertThrows(IllegalArgumentException.class, () -> locks.getAll("a", " "));
    }
}
