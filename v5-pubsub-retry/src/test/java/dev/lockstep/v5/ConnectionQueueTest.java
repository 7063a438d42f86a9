package dev.lockstep.v5;

import dev.lockstep.DistLock;
import dev.lockstep.internal.AbstractLocks;
import dev.lockstep.testkit.client.LockThread;
import dev.lockstep.testkit.fault.FaultyLink;
import dev.lockstep.testkit.fixture.Await;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.ConnectionPoolConfig;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.RedisClient;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A lock call queues for one of the client's pooled connections. A bounded wait must end at its
 * deadline, and an interrupt must end any interruptible wait, also while the call is still queued:
 * here behind a call that stalls on the only connection of the pool.
 */
class ConnectionQueueTest extends OneNodeTest {

    /** How long the stalled call waits for its reply: far longer than the waits that queue behind it. */
    private static final Duration STALL = Duration.ofSeconds(5);
    /** Well under {@link #STALL}, with room for a busy machine. */
    private static final Duration PROMPTLY = Duration.ofMillis(2500);

    private FaultyLink link;
    private DistLock lock;
    private LockThread stalled;

    /** A client with a pool of one connection, through a link that then goes silent under a call holding it. */
    @BeforeEach
    void stallTheOnlyConnection() throws Exception {
        link = closedAfter(FaultyLink.to(node.address()));
        ConnectionPoolConfig oneConnection = new ConnectionPoolConfig();
        oneConnection.setMaxTotal(1);
        RedisClient redis = RedisClient.builder().hostAndPort(link.address()).poolConfig(oneConnection)
                .clientConfig(DefaultJedisClientConfig.builder().socketTimeoutMillis((int) STALL.toMillis()).build())
                .build();
        lock = client(redis).get("queued");
        assertFalse(lock.isLocked(), "the connection works before the link goes silent");
        link.blackhole();
        stalled = closedAfter(new LockThread("stalled"));
        stalled.submit(lock::isLocked);
        Await.until("the stalled call holds the connection", STALL, () -> inFrame(stalled, "redis.clients.jedis.Connection"));
    }

    @Test
    void aBoundedWaitQueuedForAConnectionEndsAtItsDeadline() throws Exception {
        try (LockThread waiter = new LockThread("queued-waiter")) {
            long start = System.nanoTime();
            assertFalse(waiter.call(() -> lock.tryLock(Duration.ofMillis(300), null)));
            long tookMillis = (System.nanoTime() - start) / 1_000_000;
            assertTrue(tookMillis < PROMPTLY.toMillis(), "tryLock(300 ms) took " + tookMillis + " ms in the queue");
        }
        link.heal();
    }

    @Test
    void anInterruptEndsAWaitQueuedForAConnection() throws Exception {
        try (LockThread waiter = new LockThread("interrupted-waiter")) {
            Future<Boolean> waiting = waiter.submit(() -> lock.tryLock(Duration.ofSeconds(20), null));
            Await.until("the waiter queues for the connection", STALL, () -> inFrame(waiter, AbstractLocks.class.getName())
                    && waiter.thread().getState() != Thread.State.RUNNABLE);
            waiter.thread().interrupt();
            assertThrows(InterruptedException.class, () -> LockThread.get(waiting, PROMPTLY));
        }
        link.heal();
    }

    private static boolean inFrame(LockThread thread, String className) {
        return Arrays.stream(thread.thread().getStackTrace()).anyMatch(frame -> frame.getClassName().equals(className));
    }
}
