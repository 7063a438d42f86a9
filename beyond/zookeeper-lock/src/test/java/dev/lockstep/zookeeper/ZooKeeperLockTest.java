package dev.lockstep.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockstep.LeaseLoss;
import dev.lockstep.LockOptions;
import dev.lockstep.testkit.fixture.ZooKeeperEnsemble;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/**
 * The claims no comparison story plays, on a real ensemble: a hold is re-entered and counted, only
 * its thread releases it, a closed client's holds end with its session, a client cut off past its
 * session is told and believes in its hold no more, the tokens grow from holder to holder, and bad
 * input is named at the call.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ZooKeeperLockTest {

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final LockOptions OPTIONS = LockOptions.defaults().withWatchdogTimeout(Duration.ofSeconds(5));

    private ZooKeeperEnsemble ensemble;

    @BeforeAll
    void startEnsemble() {
        ensemble = ZooKeeperEnsemble.start();
    }

    @AfterAll
    void stopEnsemble() {
        ensemble.close();
    }

    @Test
    void reentersAndCountsItsHolds() throws Exception {
        try (ZooKeeperLocks locks = new ZooKeeperLocks(ensemble.connectString(), OPTIONS)) {
            ZooKeeperLock lock = locks.get("reentry");
            assertTrue(lock.tryLock(WAIT, null));
            long token = lock.token();
            assertTrue(lock.tryLock(WAIT, null));
            assertEquals(2, lock.holdCount());
            assertEquals(token, lock.token(), "a re-entry keeps the node, and so the token");
            lock.unlock();
            assertTrue(lock.isHeldByCurrentThread());
            lock.unlock();
            assertFalse(lock.isLocked());
        }
    }

    @Test
    void onlyTheHoldingThreadReleasesAndTokensGrow() throws Exception {
        try (ZooKeeperLocks a = new ZooKeeperLocks(ensemble.connectString(), OPTIONS);
             ZooKeeperLocks b = new ZooKeeperLocks(ensemble.connectString(), OPTIONS)) {
            ZooKeeperLock held = a.get("owner");
            assertTrue(held.tryLock(WAIT, null));
            long first = held.token();
            CompletableFuture<Void> foreign = CompletableFuture.runAsync(() -> b.get("owner").unlock());
            assertTrue(assertThrows(Exception.class, () -> foreign.get(10, TimeUnit.SECONDS)).getCause()
                    instanceof IllegalMonitorStateException);
            assertFalse(CompletableFuture.supplyAsync(() -> b.get("owner").tryLock()).get(10, TimeUnit.SECONDS));
            held.unlock();
            long second = CompletableFuture.supplyAsync(() -> {
                ZooKeeperLock next = b.get("owner");
                next.lock();
                try {
                    return next.token();
                } finally {
                    next.unlock();
                }
            }).get(10, TimeUnit.SECONDS);
            assertTrue(second > first, "tokens " + first + ", then " + second);
        }
    }

    @Test
    void aClosedClientsHoldEndsWithItsSession() throws Exception {
        try (ZooKeeperLocks waiter = new ZooKeeperLocks(ensemble.connectString(), OPTIONS)) {
            ZooKeeperLocks holder = new ZooKeeperLocks(ensemble.connectString(), OPTIONS);
            assertTrue(holder.get("closed").tryLock(WAIT, null));
            holder.close();
            ZooKeeperLock lock = waiter.get("closed");
            assertTrue(lock.tryLock(WAIT, null), "the session's end deleted the holder's node");
            lock.unlock();
        }
    }

    @Test
    void aHoldWhoseSessionEndedIsToldAndNoLongerBelievedIn() throws Exception {
        ZooKeeperEnsemble own = ZooKeeperEnsemble.start();
        LockOptions oneSecondSession = LockOptions.defaults().withWatchdogTimeout(Duration.ofSeconds(1));
        try (ZooKeeperLocks locks = new ZooKeeperLocks(own.connectString(), oneSecondSession)) {
            ZooKeeperLock lock = locks.get("session-ends");
            CompletableFuture<LeaseLoss> told = new CompletableFuture<>();
            lock.onLeaseLost(told::complete);
            assertTrue(lock.tryLock(WAIT, null));
            // Every server gone: the client hears nothing for longer than its session.
            own.close();
            LeaseLoss loss = told.get(20, TimeUnit.SECONDS);
            assertEquals("session-ends", loss.lockName());
            assertEquals(ZooKeeperLocks.SESSION_ENDED, loss.reason());
            assertFalse(lock.isHeldByCurrentThread());
            assertEquals(0, lock.holdCount());
            assertThrows(IllegalMonitorStateException.class, lock::token);
        } finally {
            own.close();
        }
    }

    @Test
    void badInputIsNamedAtTheCall() {
        try (ZooKeeperLocks locks = new ZooKeeperLocks(ensemble.connectString(), OPTIONS)) {
            ZooKeeperLock lock = locks.get("bad-input");
            assertTrue(assertThrows(IllegalArgumentException.class, () -> lock.lock(Duration.ofSeconds(1)))
                    .getMessage().contains("lease"));
            assertTrue(assertThrows(IllegalArgumentException.class, () -> lock.tryLock(Duration.ofSeconds(-1), null))
                    .getMessage().contains("wait"));
            assertThrows(IllegalMonitorStateException.class, lock::token);
            assertThrows(IllegalMonitorStateException.class, lock::unlock);
            assertThrows(UnsupportedOperationException.class, () -> lock.extend(Duration.ofSeconds(1)));
            assertThrows(IllegalArgumentException.class, () -> locks.get(""));
        }
        assertThrows(IllegalArgumentException.class, () -> new ZooKeeperLocks("", OPTIONS));
    }
}
