package dev.lockstep.rw;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockstep.LeaseLostException;
import dev.lockstep.LockHold;
import dev.lockstep.LockOptions;
import dev.lockstep.ReadWriteDistLock;
import dev.lockstep.testkit.client.LockThread;
import dev.lockstep.testkit.fixture.Await;
import dev.lockstep.testkit.fixture.SingleNodeTest;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A read hold's lease set anew ({@code extend}) is the lease Redis keeps for it: a shorter one
 * shortens the hash when nothing else holds it longer, and never cuts another hold that does.
 */
class ReadLeaseTest extends SingleNodeTest {

    private static final LockOptions OPTIONS = LockOptions.defaults().withWatchdogTimeout(Duration.ofSeconds(10));
    private static final Duration SHORT = Duration.ofMillis(300);

    private ReadWriteDistLock lock(String name) {
        return closedAfter(new ReadWriteLocks(closedAfter(node.newClient()), OPTIONS)).get(name);
    }

    @Test
    void aReadHoldExtendedShorterLetsAWriterInWhenItEnds() throws Exception {
        LockHold read = lock("read-shortened").readLock().tryAcquire(Duration.ZERO, null).orElseThrow();
        read.extend(SHORT);
        ReadWriteDistLock writer = lock("read-shortened");
        assertTrue(writer.remainingLease().compareTo(SHORT) <= 0, "the hash keeps " + writer.remainingLease());
        try (LockThread writing = new LockThread("writer")) {
            assertTrue(writing.call(() -> writer.tryLock(Duration.ofSeconds(3), null)),
                    "the writer waited past the read's shorter lease, for the watchdog's");
            Await.until("the reader knows its lease ran out", Duration.ofSeconds(3), () -> !read.isValid());
            writing.run(writer::unlock);
        }
    }

    @Test
    void aReadHoldExtendedShorterNeverCutsAnotherReadersLease() throws Exception {
        LockHold longer = lock("read-beside").readLock().tryAcquire(Duration.ZERO, null).orElseThrow();
        LockHold shorter = lock("read-beside").readLock().tryAcquire(Duration.ZERO, null).orElseThrow();
        shorter.extend(Duration.ofMillis(100));
        Await.pause(SHORT);
        assertTrue(longer.isValid());
        assertFalse(lock("read-beside").tryLock(), "a writer entered beside a reader whose lease runs");
        longer.release();
    }

    @Test
    void aDowngradedWritersReadExtendedShorterNeverCutsItsWrite() throws Exception {
        ReadWriteDistLock both = lock("downgraded");
        both.lock();
        both.readLock().lock();
        both.readLock().extend(Duration.ofMillis(100));
        Await.pause(SHORT);
        assertTrue(both.isHeldByCurrentThread());
        assertFalse(lock("downgraded").tryLock(), "a writer entered beside a live write");
        both.unlock();
        assertThrows(LeaseLostException.class, both.readLock()::unlock, "the read's own lease ran out");
    }
}
