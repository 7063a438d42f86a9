package dev.lockstep.rw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockstep.DistLock;
import dev.lockstep.LockOptions;
import dev.lockstep.ReadWriteDistLock;
import dev.lockstep.testkit.client.LockThread;
import dev.lockstep.testkit.fixture.Await;
import dev.lockstep.testkit.fixture.SingleNodeTest;
import java.time.Duration;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/** Readers share, a writer excludes everyone, a writer may downgrade, a reader may not upgrade. */
class SharingTest extends SingleNodeTest {

    private static final Duration SHORT = Duration.ofMillis(200);
    private static final Duration WAIT = Duration.ofSeconds(10);

    private ReadWriteDistLock lock(String name) {
        return closedAfter(new ReadWriteLocks(closedAfter(node.newClient()), LockOptions.defaults())).get(name);
    }

    @Test
    void readersOfTwoClientsHoldAtOnceAndAWriterWaitsForBoth() throws Exception {
        ReadWriteDistLock ours = lock("shared");
        ReadWriteDistLock theirs = lock("shared");
        try (LockThread reader = new LockThread("reader"); LockThread writer = new LockThread("writer")) {
            ours.readLock().lock();
            reader.run(() -> assertTrue(theirs.readLock().tryLock(Duration.ZERO, null), "a second reader waits"));
            assertFalse(writer.call(() -> theirs.tryLock(SHORT, null)), "a writer entered beside readers");
            ours.readLock().unlock();
            assertFalse(writer.call(() -> theirs.tryLock(SHORT, null)), "a writer entered beside a reader");
            Future<Boolean> written = writer.submit(() -> theirs.tryLock(WAIT, null));
            reader.run(theirs.readLock()::unlock);
            assertTrue(LockThread.get(written, WAIT), "the last reader's unlock lets the writer in");
            writer.run(theirs::unlock);
        }
        try (Jedis admin = node.admin()) {
            assertEquals(0, admin.dbSize(), "nothing left: " + admin.keys("*"));
        }
    }

    @Test
    void aWriterKeepsReadersOutAndItsUnlockLetsThemAllIn() throws Exception {
        ReadWriteDistLock writer = lock("exclusive");
        ReadWriteDistLock readers = lock("exclusive");
        writer.lock();
        try (LockThread first = new LockThread("first"); LockThread second = new LockThread("second")) {
            assertFalse(first.call(() -> readers.readLock().tryLock(SHORT, null)), "a reader entered beside the writer");
            Future<Boolean> one = first.submit(() -> readers.readLock().tryLock(WAIT, null));
            Future<Boolean> two = second.submit(() -> readers.readLock().tryLock(WAIT, null));
            writer.unlock();
            assertTrue(LockThread.get(one, WAIT) && LockThread.get(two, WAIT), "both readers enter after the write");
            first.run(readers.readLock()::unlock);
            second.run(readers.readLock()::unlock);
        }
    }

    @Test
    void aWriterMayTakeTheReadLockAndKeepsItAfterItsWriteUnlock() throws Exception {
        ReadWriteDistLock lock = lock("downgrade");
        ReadWriteDistLock other = lock("downgrade");
        lock.lock();
        lock.readLock().lock();
        lock.unlock();
        assertTrue(lock.readLock().isHeldByCurrentThread());
        try (LockThread reader = new LockThread("reader"); LockThread writer = new LockThread("writer")) {
            assertTrue(reader.call(() -> other.readLock().tryLock(WAIT, null)), "after the downgrade, readers share");
            assertFalse(writer.call(() -> other.tryLock(SHORT, null)), "but no writer enters");
            reader.run(other.readLock()::unlock);
        }
        lock.readLock().unlock();
    }

    @Test
    void anUpgradeIsRefusedAtTheCallAndLeavesTheReadHeld() {
        ReadWriteDistLock lock = lock("upgrade");
        DistLock read = lock.readLock();
        read.lock();
        IllegalMonitorStateException e = assertThrows(IllegalMonitorStateException.class, lock::lock);
        assertTrue(e.getMessage().contains("read lock"), e.getMessage());
        assertThrows(IllegalMonitorStateException.class, () -> lock.tryLock(Duration.ZERO, null));
        assertFalse(lock.isHeldByCurrentThread(), "no write hold");
        assertThrows(IllegalMonitorStateException.class, lock::unlock, "a write unlock from a thread that holds only the read lock");
        assertTrue(read.isHeldByCurrentThread(), "the read hold is untouched");
        read.unlock();
        assertFalse(read.isHeldByCurrentThread());
    }

    @Test
    void aRenewalNeverShortensAnotherReadersLongerLease() throws Exception {
        ReadWriteDistLock explicit = lock("long-read");
        ReadWriteLocks watchedClient = closedAfter(new ReadWriteLocks(closedAfter(node.newClient()),
                LockOptions.defaults().withWatchdogTimeout(Duration.ofMillis(300))));
        assertTrue(explicit.readLock().tryLock(Duration.ZERO, Duration.ofSeconds(20)));
        try (LockThread watched = new LockThread("watched"); Jedis admin = node.admin()) {
            watched.run(watchedClient.get("long-read").readLock()::lock);
            String timeoutKey = RwKeys.timeoutPrefix(RwKeys.timeoutBase("long-read"), watchedClient.clientId() + ":" + watched.threadId()) + ":1";
            AtomicLong seen = new AtomicLong(admin.pttl(timeoutKey));
            // A renewal (every 100 ms) raises the watched reader's key again: then the hash has been renewed too.
            Await.until("a renewal of the watched reader", WAIT, () -> {
                long now = admin.pttl(timeoutKey);
                return now > seen.getAndSet(now);
            });
            assertTrue(admin.pttl("long-read") > 15_000, "a 300 ms renewal cut the 20 s read short: "
                    + admin.pttl("long-read") + " ms left");
            watched.run(watchedClient.get("long-read").readLock()::unlock);
        }
        explicit.readLock().unlock();
    }

    @Test
    void readsAreReentrantAndCounted() {
        DistLock read = lock("reentrant-read").readLock();
        read.lock();
        read.lock();
        assertEquals(2, read.holdCount());
        read.unlock();
        assertTrue(read.isHeldByCurrentThread());
        read.unlock();
        assertFalse(read.isHeldByCurrentThread());
        assertThrows(IllegalMonitorStateException.class, read::unlock);
    }
}
