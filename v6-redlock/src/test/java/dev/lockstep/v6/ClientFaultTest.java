package dev.lockstep.v6;

import static dev.lockstep.v6.QuorumTestSupport.DEADLINE;
import static dev.lockstep.v6.QuorumTestSupport.hash;
import static dev.lockstep.v6.QuorumTestSupport.key;
import static dev.lockstep.v6.QuorumTestSupport.scriptRuns;
import static dev.lockstep.v6.QuorumTestSupport.subscribers;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockstep.DistLock;
import dev.lockstep.LeaseLoss;
import dev.lockstep.LockException;
import dev.lockstep.LockOptions;
import dev.lockstep.testkit.client.LockThread;
import dev.lockstep.testkit.fixture.Await;
import dev.lockstep.testkit.fixture.RedisNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Connection;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.UnifiedJedis;

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

    /**
     * A node stays stalled while the client's threads keep asking: every request of an owner with
     * one unanswered queues behind it on the node's lane. The lane must stop growing at its
     * capacity, the requests beyond it failing that node at once, and drain once the node is back.
     */
    @Test
    void aStalledNodesLaneStopsGrowingAtItsCapacity() throws Exception {
        String name = "stalled-lane";
        List<UnifiedJedis> clients = clientsOf(nodes);
        RedLocks locks = closedAfter(new RedLocks(clients, LockOptions.defaults().withNodeTimeout(Duration.ofMillis(20))));
        DistLock lock = locks.get(name);
        RedisNode stalled = nodes.get(3);
        int threads = 8;
        int callsEach = 3 * OwnerQueue.CAPACITY / threads;
        // Idle connections for every thread: a first call that had to open one would wait out the handshake instead.
        keepIdleConnections((RedisClient) clients.get(3), threads);
        List<LockThread> askers = new ArrayList<>();
        stalled.pause();
        try {
            for (int i = 0; i < threads; i++) {
                askers.add(closedAfter(new LockThread("asker-" + i)));
            }
            List<Future<Object>> asking = new ArrayList<>();
            for (LockThread asker : askers) {
                // Three of four nodes answer: a quorum, so each call succeeds while the stalled node's lane fills.
                asking.add(asker.submit(() -> {
                    for (int call = 0; call < callsEach; call++) {
                        try {
                            lock.remainingLease();
                        } catch (LockException tooFewAnsweredOnABusyMachine) {
                            // Only the stalled node's lane is measured here.
                        }
                    }
                    return null;
                }));
            }
            for (Future<Object> done : asking) {
                LockThread.get(done, DEADLINE);
            }
            int queued = locks.fanOut().queuedRequests().get(3);
            assertTrue(queued <= OwnerQueue.CAPACITY, queued + " requests wait for the stalled node, more than "
                    + OwnerQueue.CAPACITY);
        } finally {
            stalled.resume();
        }
        Await.until("the lane drains once the node is back", DEADLINE,
                () -> locks.fanOut().queuedRequests().get(3) == 0);
    }

    private static void keepIdleConnections(RedisClient redis, int count) {
        List<Connection> borrowed = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Connection connection = redis.getPool().getResource();
            connection.ping();
            borrowed.add(connection);
        }
        borrowed.forEach(Connection::close);
    }

    /**
     * A node dies under a sleeping waiter; the holder unlocks on the others, and the waiter is
     * granted by a quorum while its subscriber still waits to reconnect to the dead node. Leaving
     * the channel must not write to that node's dead connection: the write would fail, and the
     * error would replace the waiter's {@code true}, leaving a granted lock nobody knows it holds.
     */
    @Test
    void aGrantWhileOneSubscriptionReconnectsIsReported() throws Exception {
        String name = "grant-while-reconnecting";
        List<RedisNode> three = List.of(fixture.start(), fixture.start(), fixture.start());
        three.forEach(QuorumTestSupport::loadScripts);
        // A long retry pause: the grant surely comes while the dead node's subscription waits to reconnect.
        LockOptions options = LockOptions.defaults().withSpinInterval(Duration.ofSeconds(2));
        DistLock holder = closedAfter(new RedLocks(clientsOf(three), options)).get(name);
        RedLocks waiters = closedAfter(new RedLocks(clientsOf(three), options));
        DistLock waiter = waiters.get(name);
        try (LockThread holding = new LockThread("holder"); LockThread waiting = new LockThread("waiter")) {
            assertTrue(holding.call(() -> holder.tryLock(Duration.ZERO, null)));
            long before = scriptRuns(three.get(0));
            Future<Boolean> taking = waiting.submit(() -> waiter.tryLock(LEASE, null));
            Await.until("the waiter sleeps on every node", DEADLINE, () -> scriptRuns(three.get(0)) - before >= 2
                    && three.stream().allMatch(node -> subscribers(node, name) == 1));
            three.get(2).kill();
            String deadNodesSubscriber = "lockstep-subscriber-" + waiters.clientId().substring(0, 8) + "-n3";
            Await.until("the dead node's subscriber pauses", DEADLINE, () -> Thread.getAllStackTraces().keySet()
                    .stream().anyMatch(t -> t.getName().equals(deadNodesSubscriber)
                            && t.getState() == Thread.State.TIMED_WAITING));
            holding.run(holder::unlock);
            assertTrue(LockThread.get(taking, DEADLINE), "granted by two of three masters, the waiter was not told");
            assertTrue(waiting.call(waiter::isHeldByCurrentThread));
            waiting.run(waiter::unlock);
        }
    }
}
