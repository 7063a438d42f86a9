package dev.lockstep.rw;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockstep.LockOptions;
import dev.lockstep.ReadWriteDistLock;
import dev.lockstep.testkit.fixture.Await;
import dev.lockstep.testkit.fixture.SingleNodeTest;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * A writer (renewed by the watchdog) that takes a read with a fixed lease: the read ends with its
 * lease in Redis too, although the write renews the hash that holds the read's field. Left there,
 * the field would keep the lock in read mode after the write, and every writer out for a lease more.
 */
class FixedReadBesideWriteTest extends SingleNodeTest {

    /** Renewed every 500 ms: the write is renewed before the read's lease ends, and again after. */
    private static final LockOptions OPTIONS = LockOptions.defaults().withWatchdogTimeout(Duration.ofMillis(1500));
    private static final Duration READ_LEASE = Duration.ofMillis(600);
    /** What a loaded machine may add to the lease before the read's field is gone. */
    private static final Duration SLACK = Duration.ofSeconds(1);

    @Test
    void aWritersFixedLeaseReadLeavesRedisWithItsLease() throws Exception {
        String name = "fixed-read-beside-write";
        ReadWriteLocks client = closedAfter(new ReadWriteLocks(closedAfter(node.newClient()), OPTIONS));
        ReadWriteDistLock lock = client.get(name);
        lock.lock();
        assertTrue(lock.readLock().tryLock(Duration.ZERO, READ_LEASE), "a writer may take a read");
        String readField = client.clientId() + ":" + Thread.currentThread().getId();
        try (Jedis admin = node.admin()) {
            Await.until("the read's field leaves Redis once its lease ran out, while the write is renewed",
                    READ_LEASE.plus(SLACK), () -> !admin.hexists(name, readField));
            assertTrue(admin.hexists(name, readField + ":write"), "the write went with the read");
        }
        assertTrue(lock.isHeldByCurrentThread(), "the write went with the read");
        assertFalse(lock.readLock().isHeldByCurrentThread(), "the read outlived its lease");
        lock.unlock();
        assertTrue(closedAfter(new ReadWriteLocks(closedAfter(node.newClient()), OPTIONS)).get(name).tryLock(),
                "after the write the lock stayed held, by the read whose lease had ended");
    }
}
