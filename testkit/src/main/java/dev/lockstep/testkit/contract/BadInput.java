package dev.lockstep.testkit.contract;

import dev.lockstep.DistLock;
import dev.lockstep.Guarantee;
import dev.lockstep.LockOptions;
import dev.lockstep.Locks;
import dev.lockstep.internal.Args;
import dev.lockstep.testkit.client.LockThread;
import dev.lockstep.testkit.fixture.Await;
import dev.lockstep.testkit.fixture.RedisNode;
import dev.lockstep.testkit.stage.Stage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.RedisClient;
import static dev.lockstep.testkit.contract.Messages.assertMessage;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Part of {@link LockContract}: bad input fails at the call and names the argument; absurd waits and leases are handled. */
public interface BadInput extends StageUnderTest {

    @Test
    default void badInputFailsAtTheCallNamingTheArgument() {
        Locks client = open();
        DistLock lock = client.get("bad-input");
        assertMessage(NullPointerException.class, "name", () -> client.get(null));
        assertMessage(IllegalArgumentException.class, "name", () -> client.get("  "));
        assertMessage(NullPointerException.class, "wait", () -> lock.tryLock(null, null));
        assertMessage(IllegalArgumentException.class, "wait", () -> lock.tryLock(Duration.ofMillis(-1), null));
        assertMessage(IllegalArgumentException.class, "lease", () -> lock.tryLock(Duration.ZERO, Duration.ZERO));
        assertMessage(IllegalArgumentException.class, "lease", () -> lock.tryLock(Duration.ZERO, Duration.ofSeconds(-1)));
        assertMessage(IllegalArgumentException.class, "lease", () -> lock.lock(Duration.ZERO));
        assertMessage(NullPointerException.class, "unit", () -> lock.tryLock(1, null));
        List<RedisClient> clients = nodes().stream().map(RedisNode::newClient).toList();
        clients.forEach(this::closedAfterTest);
        assertMessage(NullPointerException.class, stage().multiNode() ? "nodes" : "redis",
                () -> stage().open(stage().multiNode() ? null : Collections.singletonList(null), LockOptions.defaults()));
        assertMessage(NullPointerException.class, "options", () -> stage().open(clients, null));
        if (claims(Guarantee.REENTRANT)) {
            // Redisson's layout from stage 3 on: braces that are not a whole hash tag would split key and channel.
            assertMessage(IllegalArgumentException.class, "name", () -> client.get("orders{eu"));
        }
        assertMessage(IllegalArgumentException.class, "spinInterval",
                () -> LockOptions.defaults().withSpinInterval(Duration.ofNanos(500_000)));
        client.close();
        assertMessage(IllegalStateException.class, "closed", () -> client.get("bad-input"));
    }

    @Test
    default void absurdLeasesAreRefusedAndNoLockKeyLivesWithoutATtl() throws InterruptedException {
        DistLock lock = open().get("absurd");
        assertMessage(IllegalArgumentException.class, "lease", () -> lock.lock(Duration.ofMillis(Long.MAX_VALUE)));
        assertMessage(IllegalArgumentException.class, "lease", () -> lock.tryLock(Duration.ZERO, Duration.ofDays(366)));
        assertMessage(IllegalArgumentException.class, "lease", () -> lock.tryLock(Duration.ZERO, Duration.ofMillis(9)));
        assertTrue(lock.tryLock(Duration.ZERO, Args.MAX_LEASE), "the longest lease is a lease like any other");
        for (RedisNode node : nodes()) {
            try (Jedis admin = node.admin()) {
                // The other tests' keys too: they run beside this one. PTTL -1 is a key without a TTL; -2, one gone since KEYS.
                for (String key : admin.keys("*")) {
                    assertTrue(key.startsWith(Stage.TOKEN_COUNTERS) || admin.pttl(key) != -1,
                            "key " + key + " has no TTL on " + node.label());
                }
            }
        }
        lock.unlock();
    }

    @Test
    default void aWaitTooLongToCountIsForever() throws Exception {
        DistLock holder = open().get("forever");
        DistLock waiter = open().get("forever");
        try (LockThread thread = new LockThread("forever")) {
            for (Duration forever : List.of(Duration.ofNanos(Long.MAX_VALUE), Duration.ofDays(365 * 300))) {
                assertTrue(holder.tryLock(Duration.ZERO, null));
                CountDownLatch started = new CountDownLatch(1);
                Future<Boolean> waited = thread.submit(() -> {
                    started.countDown();
                    return waiter.tryLock(forever, null);
                });
                assertTrue(started.await(BOUNDED.toMillis(), TimeUnit.MILLISECONDS));
                Await.until("the wait blocks or ends", BOUNDED, () -> waited.isDone()
                        || thread.thread().getState() == Thread.State.TIMED_WAITING
                        || thread.thread().getState() == Thread.State.WAITING);
                assertFalse(waited.isDone(), "a wait of " + forever + " gave up at once");
                holder.unlock();
                assertTrue(LockThread.get(waited, BOUNDED), "the waiter did not get the released lock");
                thread.run(waiter::unlock);
            }
        }
    }

    @Test
    default void theSameNodeClientTwiceIsRefused() {
        assumeTrue(stage().multiNode(), "a single-node stage takes one client");
        RedisClient once = closedAfterTest(nodes().get(0).newClient());
        List<RedisClient> twice = new ArrayList<>(Collections.nCopies(2, once));
        for (int i = 2; i < nodes().size(); i++) {
            twice.add(closedAfterTest(nodes().get(i).newClient()));
        }
        assertMessage(IllegalArgumentException.class, "nodes", () -> stage().open(twice, LockOptions.defaults()));
    }
}
