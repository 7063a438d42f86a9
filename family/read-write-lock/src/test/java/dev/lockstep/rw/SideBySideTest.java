package dev.lockstep.rw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockstep.LockOptions;
import dev.lockstep.ReadWriteDistLock;
import dev.lockstep.testkit.client.LockThread;
import dev.lockstep.testkit.fixture.SingleNodeTest;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * Each side answers for itself: an operator who clears one side never evicts a holder of the other,
 * and a read hold that Redis no longer counts is never renewed as if it were.
 */
class SideBySideTest extends SingleNodeTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    private ReadWriteDistLock lock(String name, LockOptions options) {
        return closedAfter(new ReadWriteLocks(closedAfter(node.newClient()), options)).get(name);
    }

    @Test
    void forcingTheReadSideOpenLeavesALiveWriterAlone() throws Exception {
        ReadWriteDistLock writer = lock("forced", LockOptions.defaults());
        ReadWriteDistLock operator = lock("forced", LockOptions.defaults());
        writer.lock();
        assertTrue(operator.isLocked(), "the write side is locked");
        assertFalse(operator.readLock().isLocked(), "no reader holds it");
        assertFalse(operator.readLock().forceUnlock(), "the read side's force-unlock evicted the writer");
        try (LockThread reader = new LockThread("reader")) {
            assertFalse(reader.call(() -> operator.readLock().tryLock(Duration.ZERO, null)),
                    "a reader got in beside the writer");
        }
        assertTrue(writer.isHeldByCurrentThread());
        writer.unlock();
    }

    @Test
    void forcingTheWriteSideOpenLeavesReadersAloneAndTheReadSideClearsThemWithTheirKeys() throws Exception {
        ReadWriteDistLock reader = lock("stuck-readers", LockOptions.defaults());
        ReadWriteDistLock operator = lock("stuck-readers", LockOptions.defaults());
        reader.readLock().lock();
        reader.readLock().lock();
        assertTrue(operator.readLock().isLocked(), "the read side is locked");
        assertFalse(operator.isLocked(), "no writer holds it");
        assertFalse(operator.forceUnlock(), "the write side's force-unlock evicted readers");
        assertTrue(operator.readLock().forceUnlock(), "the read side's force-unlock cleared the readers");
        try (Jedis admin = node.admin()) {
            assertEquals(0, admin.dbSize(), "the readers' hash and timeout keys are gone: " + admin.keys("*"));
        }
        try (LockThread writer = new LockThread("writer")) {
            assertTrue(writer.call(() -> operator.tryLock(Duration.ZERO, null)), "a writer gets in");
            writer.run(operator::unlock);
        }
    }

    @Test
    void aReadHoldWhoseTimeoutKeyExpiredIsLostNotRenewed() throws Exception {
        LockOptions watched = LockOptions.defaults().withWatchdogTimeout(Duration.ofMillis(600));
        ReadWriteLocks pausedClient = closedAfter(new ReadWriteLocks(closedAfter(node.newClient()), watched));
        ReadWriteDistLock paused = pausedClient.get("paused-reader");
        ReadWriteDistLock other = lock("paused-reader", LockOptions.defaults());
        CountDownLatch told = new CountDownLatch(1);
        paused.readLock().onLeaseLost(loss -> told.countDown());
        paused.readLock().lock();
        try (LockThread reader = new LockThread("other-reader"); Jedis admin = node.admin()) {
            assertTrue(reader.call(() -> other.readLock().tryLock(Duration.ZERO, null)));
            // What a reader paused past its lease finds: its timeout key expired while another reader kept the
            // hash alive. The last other reader's unlock would no longer count it.
            String timeoutKey = RwKeys.timeoutPrefix(RwKeys.timeoutBase("paused-reader"),
                    pausedClient.clientId() + ":" + Thread.currentThread().getId()) + ":1";
            assertEquals(1, admin.del(timeoutKey), "the paused reader's timeout key");
            assertTrue(told.await(WAIT.toMillis(), TimeUnit.MILLISECONDS), "the reader was renewed, not told it lost");
            assertFalse(paused.readLock().isHeldByCurrentThread());
            reader.run(other.readLock()::unlock);
        }
    }
}
