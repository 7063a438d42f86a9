package dev.lockstep.testkit.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.lockstep.DistLock;
import dev.lockstep.Guarantee;
import dev.lockstep.LockException;
import dev.lockstep.LockOptions;
import dev.lockstep.testkit.client.LockThread;
import dev.lockstep.testkit.fault.FaultyLink;
import dev.lockstep.testkit.fixture.Await;
import dev.lockstep.testkit.fixture.RedisNode;
import dev.lockstep.testkit.fixture.ServerSecurity;
import dev.lockstep.testkit.scenario.ScenarioContext;
import dev.lockstep.testkit.stage.Stage;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * Every call can fail with an unknown outcome, not only the first acquisition: a re-entry, an
 * unlock. What the client believes it holds must stay what Redis stores, and no fault may make a
 * thread wait for a hold it has itself. Mixed into {@link LockContract}, so every stage runs these.
 */
public interface CallFaults extends StageUnderTest {

    /** How long a test waits for what must happen. */
    Duration WAIT = Duration.ofSeconds(8);

    /**
     * A thread holds the lock and another thread of its client waits for it, asleep on the release
     * channel with its client's turn. The holder takes the lock again, and the first try gets no
     * answer. Its retry must not queue behind the waiter: the waiter waits for the holder's own
     * hold, and the two would wait for each other while the watchdog keeps the hold alive.
     */
    @Test
    default void aReentryWhoseTryFailsNeverWaitsBehindItsOwnClientsWaiters() throws Exception {
        assumeTrue(security() == ServerSecurity.NONE, "plays alike on any transport: the plain run plays it");
        Stage stage = stage();
        assumeTrue(stage.claims().contains(Guarantee.REENTRANT) && stage.claims().contains(Guarantee.EFFICIENT_WAIT),
                "only a reentrant lock whose waiters sleep on a channel can queue a re-entry behind them");
        // Over several nodes, when the retry meets the waiter hangs on how the nodes' lanes drain after the
        // fault: ModelTest's known history REENTRY_BEHIND_OWN_WAITER plays the story on stage 6.
        assumeTrue(!stage.multiNode(), "stage 6 plays it as a known history of its ModelTest");
        try (ScenarioContext context = new ScenarioContext(stage, fixture());
             LockThread holder = new LockThread("holder"); LockThread waiter = new LockThread("waiter")) {
            List<FaultyLink> links = context.links();
            // Stage 6 rides out rounds without a quorum for ten node timeouts: enough to reconnect after the heal.
            DistLock lock = context.actorBehind("A", links, Stage.leaseOptions(Duration.ofSeconds(6))
                    .withSpinInterval(Duration.ofMillis(300)).withNodeTimeout(Duration.ofMillis(500)))
                    .locks().get("reentered");
            assertTrue(holder.call(() -> lock.tryLock(Duration.ZERO, null)));
            Future<Boolean> waiting = waiter.submit(() -> lock.tryLock(WAIT.multipliedBy(2), null));
            Await.until("the waiter listens on a release channel", WAIT, () -> listening(context.nodes()));
            links.forEach(FaultyLink::blackhole);
            Future<Boolean> reentry = holder.submit(() -> lock.tryLock(WAIT, null));
            Await.until("the re-entry's first try failed", WAIT.multipliedBy(2), () -> betweenTries(holder.thread()));
            links.forEach(FaultyLink::heal);
            assertTrue(LockThread.get(reentry, WAIT), "the re-entry waited behind its own client's waiter");
            assertEquals(2, holder.call(lock::holdCount));
            holder.run(lock::unlock);
            holder.run(lock::unlock);
            assertTrue(LockThread.get(waiting, WAIT), "the waiter got the lock after the holder's last unlock");
            waiter.run(lock::unlock);
        }
    }

    /**
     * A thread holds the lock twice; its inner unlock fails (the reply is lost). The unlock ended one
     * hold, as the call's contract says, not both: the thread still holds the lock, is still renewed,
     * and its outer unlock frees it at once.
     */
    @Test
    default void anInnerUnlockThatFailsEndsOneHold() throws Exception {
        assumeTrue(security() == ServerSecurity.NONE, "plays alike on any transport: the plain run plays it");
        Stage stage = stage();
        assumeTrue(stage.claims().contains(Guarantee.RETRY_SAFE) && stage.claims().contains(Guarantee.REENTRANT),
                "the stage does not claim that a call whose reply was lost can be retried");
        try (ScenarioContext context = new ScenarioContext(stage, fixture()); LockThread holder = new LockThread("holder")) {
            List<FaultyLink> links = context.links();
            // Long enough for renewals to ride out the lost replies, also on a loaded machine where a renewal comes
            // late and its retry times out once more (a JDK 25 CI run lost the hold with a 6 s lease). Stage 6 queues
            // the holder's next calls to each node behind the unanswered ones until the node answers again: 500 ms
            // per node leaves that room.
            LockOptions options = Stage.leaseOptions(Duration.ofSeconds(10)).withNodeTimeout(Duration.ofMillis(500));
            DistLock lock = context.actorBehind("A", links, options).locks().get("unlocked");
            DistLock other = context.actor("B", options).locks().get("unlocked");
            assertTrue(holder.call(() -> lock.tryLock(Duration.ZERO, null)));
            assertTrue(holder.call(() -> lock.tryLock(Duration.ZERO, null)));
            links.forEach(FaultyLink::loseReplies);
            holder.run(() -> assertThrows(LockException.class, lock::unlock));
            links.forEach(FaultyLink::heal);
            assertTrue(holder.call(lock::isHeldByCurrentThread), "the failed inner unlock ended the outer hold too");
            assertEquals(1, holder.call(lock::holdCount));
            // A renewal shows as the remaining lease jumping up from the lowest seen so far. On every node: a node
            // whose replies were lost answers the holder again only once its queued calls have timed out.
            List<RedisNode> nodes = context.nodes();
            long[] lowest = new long[nodes.size()];
            boolean[] renewed = new boolean[nodes.size()];
            Arrays.fill(lowest, Long.MAX_VALUE);
            Await.until("a renewal of the outer hold on every node", WAIT, () -> {
                int seen = 0;
                for (int i = 0; i < nodes.size(); i++) {
                    try (Jedis admin = nodes.get(i).admin()) {
                        long left = admin.pttl("unlocked");
                        renewed[i] |= lowest[i] != Long.MAX_VALUE && left > lowest[i] + 100;
                        lowest[i] = Math.min(lowest[i], left);
                    }
                    seen += renewed[i] ? 1 : 0;
                }
                return seen == nodes.size();
            });
            assertFalse(other.tryLock(Duration.ZERO, null), "another client got in while the outer hold lasts");
            holder.run(lock::unlock);
            assertTrue(other.tryLock(Duration.ofSeconds(1), null), "the outer unlock did not free the lock");
            other.unlock();
        }
    }

    /**
     * A thread's one hold ends with an unlock that never reaches Redis: the connection it goes out on
     * was dropped meanwhile, so the call fails. The thread now believes it holds nothing, and Redis
     * must soon agree: long before the 30 s lease ends, another client gets the lock.
     */
    @Test
    default void aLastUnlockThatFailsIsGivenBackBeforeTheLeaseEnds() throws Exception {
        assumeTrue(security() == ServerSecurity.NONE, "plays alike on any transport: the plain run plays it");
        Stage stage = stage();
        assumeTrue(stage.claims().contains(Guarantee.RETRY_SAFE),
                "the stage does not claim that a call whose outcome is unknown leaves Redis as the client believes");
        try (ScenarioContext context = new ScenarioContext(stage, fixture()); LockThread holder = new LockThread("holder")) {
            List<FaultyLink> links = context.links();
            LockOptions options = Stage.leaseOptions(Duration.ofSeconds(30));
            DistLock lock = context.actorBehind("A", links, options).locks().get("given-back");
            assertTrue(holder.call(() -> lock.tryLock(Duration.ZERO, null)));
            links.forEach(FaultyLink::resetConnections);
            holder.run(() -> assertThrows(LockException.class, lock::unlock, "an unlock on a dropped connection"));
            assertFalse(holder.call(lock::isHeldByCurrentThread), "the failed unlock did not end the thread's hold");
            DistLock other = context.actor("B", options).locks().get("given-back");
            assertTrue(other.tryLock(WAIT, null), "the lock stayed taken after its holder's last unlock failed: "
                    + "Redis kept a hold its owner no longer believes in, until the lease ends");
            other.unlock();
        }
    }

    private static boolean listening(List<RedisNode> nodes) {
        try (Jedis admin = nodes.get(0).admin()) {
            return !admin.pubsubChannels().isEmpty();
        }
    }

    /** Whether {@code thread} waits to try again: asleep between tries, or in the subscriber's wait. */
    private static boolean betweenTries(Thread thread) {
        return Arrays.stream(thread.getStackTrace()).anyMatch(frame -> frame.getClassName().equals("java.lang.Thread")
                && frame.getMethodName().equals("sleep") || frame.getClassName().endsWith(".Subscriber"));
    }
}
