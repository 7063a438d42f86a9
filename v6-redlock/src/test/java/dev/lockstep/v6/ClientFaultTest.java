package dev.lockstep.v6;

import static dev.lockstep.v6.QuorumTestSupport.DEADLINE;
import static dev.lockstep.v6.QuorumTestSupport.hash;
import static dev.lockstep.v6.QuorumTestSupport.key;
import static dev.lockstep.v6.QuorumTestSupport.scriptRuns;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockstep.DistLock;
import dev.lockstep.LeaseLoss;
import dev.lockstep.LockOptions;
import dev.lockstep.testkit.Await;
import dev.lockstep.testkit.LockThread;
import dev.lockstep.testkit.RedisNode;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * Faults that leave a quorum client unsure of what it holds: a split vote that no release
 * message will ever end, and an inner unlock whose replies cannot tell it from the last one.
 * Four masters, so a vote can split two against two.
 */
class ClientFaultTest extends IndependentMastersTest {

    private static final Duration LEASE = Duration.ofSeconds(10);

    @BeforeAll
    static void startNodes() {
        startMasters(4);
        nodes.forEach(QuorumTestSupport::loadScripts);
    }

    /**
     * A rival holds two of four masters, half: no quorum, a split vote. Both sides give their
     * grants back quietly (announcing a non-release would wake everyone into another split), so
     * no message comes: a waiter that slept out the rival's lease would wait 10 s for a lock that
     * is free once the rival has given up. It must try again after a short, jittered pause.
     */
    @Test
    void aSplitVoteIsRetriedSoonNotSleptOut() throws Exception {
        String name = "split-even";
        RedLocks locks = closedAfter(new RedLocks(clientsOf(nodes), LockOptions.defaults()));
        DistLock lock = locks.get(name);
        List<RedisNode> rivals = nodes.subList(0, 2);
        for (RedisNode node : rivals) {
            try (Jedis admin = node.admin()) {
                admin.hset(key(name), "rival:1", "1");
                admin.pexpire(key(name), LEASE.toMillis());
            }
        }
        long before = scriptRuns(rivals.get(0));
        try (LockThread thread = new LockThread("split-even")) {
            Future<Boolean> waiting = thread.submit(() -> lock.tryLock(LEASE.dividedBy(2), null));
            // Refused twice by the rival's node, before subscribing and after: then it waits for the next round.
            Await.until("the waiter sleeps after a lost round", DEADLINE, () -> scriptRuns(rivals.get(0)) - before >= 2
                    && thread.thread().getState() == Thread.State.TIMED_WAITING);
            // The rival gives up, as a split-vote loser does: quietly.
            for (RedisNode node : rivals) {
                try (Jedis admin = node.admin()) {
                    admin.del(key(name));
                }
            }
            long freed = System.nanoTime();
            assertTrue(LockThread.get(waiting, DEADLINE), "a waiter slept out a split vote's lease");
            long lagMillis = (System.nanoTime() - freed) / 1_000_000;
            assertTrue(lagMillis < 1000, "the split vote cost " + lagMillis + " ms");
            thread.run(lock::unlock);
        }
    }

    /**
     * Held twice, then one master loses the key and another stalls. The inner unlock's replies,
     * one "not held", one missing and two "still held", are no quorum of "still held", yet it is
     * the inner unlock: the outer critical section still runs. The client's own count says so;
     * it must go on renewing, and tell the holder if renewals fail, never drop the hold silently.
     */
    @Test
    void anInnerUnlockWithUnknownRepliesKeepsTheOuterHold() throws Exception {
        String name = "inner-unknown";
        RedLocks locks = closedAfter(new RedLocks(clientsOf(nodes), LockOptions.defaults()));
        DistLock lock = locks.get(name);
        List<LeaseLoss> losses = new CopyOnWriteArrayList<>();
        lock.onLeaseLost(losses::add);
        RedisNode stalled = nodes.get(3);
        try (LockThread thread = new LockThread("inner-unknown")) {
            thread.run(lock::lock);
            thread.run(lock::lock);
            try (Jedis admin = nodes.get(0).admin()) {
                admin.del(key(name));
            }
            stalled.pause();
            try {
                thread.run(lock::unlock);
                assertTrue(thread.call(lock::isHeldByCurrentThread), "the inner unlock ended the outer hold");
                assertTrue(losses.isEmpty(), "a loss was signalled for a hold still on two of four masters");
            } finally {
                stalled.resume();
            }
            thread.run(lock::unlock);
        }
        Await.until("the last unlock frees every master", DEADLINE,
                () -> nodes.stream().allMatch(node -> hash(node, name).isEmpty()));
    }
}
