package dev.lockstep.vthreads;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockstep.DistLock;
import dev.lockstep.LockException;
import dev.lockstep.LockOptions;
import dev.lockstep.Locks;
import dev.lockstep.testkit.fault.FaultyLink;
import dev.lockstep.testkit.fixture.RedisNode;
import dev.lockstep.testkit.fixture.SingleNodeTest;
import dev.lockstep.v5.PubSubLocks;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.RedisClient;

/**
 * An interrupt closes a virtual thread's socket under a blocking read. Interrupted while its lock
 * call waits for the reply, the thread may leave behind a grant Redis made and it never heard of.
 * With the watchdog's 30 s lease, such a ghost would keep everyone out for 30 s; the lock gives it
 * back on the spot.
 */
class InterruptedVirtualThreadTest extends SingleNodeTest {

    private static final int ROUNDS = 100;
    /** Each way, in front of Redis: a reply long enough on its way for an interrupt to land in the read. */
    private static final Duration DELAY = Duration.ofMillis(4);

    @Test
    void aThreadInterruptedMidCallLeavesNoGhostHold() throws Exception {
        AtomicInteger midCall = new AtomicInteger();
        try (FaultyLink link = FaultyLink.to(node.address());
             RedisClient slow = RedisNode.newClient(link.address());
             RedisClient direct = node.newClient();
             Locks interrupted = new PubSubLocks(slow, LockOptions.defaults());
             Locks next = new PubSubLocks(direct, LockOptions.defaults())) {
            link.delay(DELAY);
            for (int round = 0; round < ROUNDS; round++) {
                CountDownLatch calling = new CountDownLatch(1);
                Thread thread = Thread.ofVirtual().name("interrupted-" + round).start(() -> {
                    DistLock lock = interrupted.get("stock");
                    calling.countDown();
                    try {
                        if (lock.tryLock(Duration.ofSeconds(5), null)) {
                            lock.unlock();
                        }
                    } catch (InterruptedException | LockException e) {
                        midCall.incrementAndGet();
                    }
                });
                assertTrue(calling.await(5, TimeUnit.SECONDS));
                // Somewhere inside the round trip: sent, on its way, or being answered.
                Thread.sleep(0, ThreadLocalRandom.current().nextInt(1_000_000));
                thread.interrupt();
                thread.join(Duration.ofSeconds(10));
                assertTrue(!thread.isAlive(), "the interrupted thread did not finish");
                DistLock after = next.get("stock");
                long asked = System.nanoTime();
                assertTrue(after.tryLock(Duration.ofSeconds(1), null), "round " + round
                        + ": the lock was still held a second after the interrupted thread ended (a ghost hold)");
                System.out.printf("round %d: free %d µs after the interrupted thread ended%n", round,
                        TimeUnit.NANOSECONDS.toMicros(System.nanoTime() - asked));
                after.unlock();
            }
        }
        System.out.printf("%d of %d calls were interrupted before they returned%n", midCall.get(), ROUNDS);
        assertTrue(midCall.get() > 0, "no interrupt landed inside a call: the test proved nothing");
    }
}
