package dev.lockstep.v6;

import static dev.lockstep.v6.QuorumTestSupport.fieldsOf;
import static dev.lockstep.v6.QuorumTestSupport.hash;
import static dev.lockstep.v6.QuorumTestSupport.key;
import static dev.lockstep.v6.QuorumTestSupport.millis;
import static dev.lockstep.v6.QuorumTestSupport.pttl;
import static dev.lockstep.v6.QuorumTestSupport.scriptRuns;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.lockstep.DistLock;
import dev.lockstep.LockException;
import dev.lockstep.LockOptions;
import dev.lockstep.testkit.client.LockThread;
import dev.lockstep.testkit.fixture.Await;
import dev.lockstep.testkit.fixture.RedisNode;
import dev.lockstep.v5.PubSubLocks;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.UnifiedJedis;

/**
 * {@link MultiLocks} is the strict sibling of RedLock: the lock is held only when every one of
 * the N masters granted it. Proven on three real {@code redis-server} processes:
 *
 * <ul>
 *   <li><b>All, not a majority.</b> A rival on one master out of three is enough to refuse the
 *       lock (two of three would be a RedLock quorum), and the two grants this client got are
 *       given back, or the rival, wanting all three, would find them taken.
 *   <li><b>Unavailable while any master is down.</b> The price of "all": one frozen master makes
 *       every attempt fail, in bounded time (a node timeout and an undo), never hang.
 *   <li><b>Reentrancy on every master.</b> A second lock by the holding thread counts on each
 *       node (HGET shows 2 everywhere), and it takes two unlocks to release.
 *   <li><b>Clean cycles.</b> A lock/unlock cycle leaves no key on any master.
 * </ul>
 *
 * <p>Each node is emptied before each test, and every script is loaded up front so each lock
 * call is exactly one EVALSHA.
 */
class MultiLockTest extends IndependentMastersTest {

    private static final Duration NODE_TIMEOUT = Duration.ofMillis(100);

    @BeforeAll
    static void startNodes() {
        startMasters(3);
    }

    /** A MultiLock client over all three nodes; closed after the test, before its node clients. */
    private MultiLocks client(LockOptions options) {
        return closedAfter(new MultiLocks(clientsOf(nodes), options));
    }

    private static LockOptions options() {
        return LockOptions.defaults().withNodeTimeout(NODE_TIMEOUT);
    }

    /**
     * A rival (a stage-5 client, same data layout) holds the lock on the middle node only. Two of
     * three masters grant this client, which would be a majority; for a MultiLock it is not
     * enough, so a 300 ms try fails, and the two grants are given back: the first and last node
     * end up with no field of this client (each ran its lock scripts and as many undos), and
     * the rival's hold is untouched.
     */
    @Test
    void aRivalOnOneNodeIsEnoughToRefuseAndTheOtherGrantsAreGivenBack() throws Exception {
        String name = "rival-on-one";
        RedisNode rivalNode = nodes.get(1);
        List<RedisNode> others = List.of(nodes.get(0), nodes.get(2));
        List<UnifiedJedis> rivalClient = clientsOf(List.of(rivalNode));
        PubSubLocks rivals = new PubSubLocks(rivalClient.get(0), options());
        closedAfter(rivals);
        MultiLocks locks = client(options());
        try (LockThread rival = new LockThread("rival")) {
            rival.run(() -> rivals.get(name).lock());
            String rivalField = rivals.clientId() + ":" + rival.threadId();
            long before = scriptRuns(others.get(0));

            long start = System.nanoTime();
            boolean taken = locks.get(name).tryLock(Duration.ofMillis(300), null);
            long took = System.nanoTime() - start;
            long runs = scriptRuns(others.get(0)) - before;
            System.out.printf("MultiLockTest: rival on 1 of 3: refused after %d ms, %d scripts on a free node%n", millis(took), runs);

            assertFalse(taken, "2 of 3 masters granted and the MultiLock counted it as held");
            assertTrue(took < Duration.ofSeconds(2).toNanos(), "a 300 ms try took " + millis(took) + " ms");
            assertTrue(runs >= 2 && runs % 2 == 0, "every lock script on a free node is followed by its undo, ran " + runs);
            for (RedisNode node : others) {
                assertEquals(Map.of(), hash(node, name), node + " kept this client's grant after a refused round");
            }
            assertEquals(Map.of(rivalField, "1"), hash(rivalNode, name), "the rival's hold is untouched");
            rival.run(() -> rivals.get(name).unlock());
        }
        assertTrue(locks.get(name).tryLock(Duration.ZERO, null), "control: with the rival gone, all three grant");
        locks.get(name).unlock();
    }

    /**
     * One of three masters frozen: "all" is out of reach, so attempts fail, with
     * {@link LockException} (the frozen node's state is unknown) or false, in bounded time; the
     * two masters that answered keep nothing. Late grants the frozen node hands out when it
     * wakes run out with their lease (a 1.5 s watchdog timeout here).
     */
    @Test
    void oneStalledNodeMakesTheLockUnavailableInBoundedTime() throws Exception {
        String name = "stalled";
        Duration lease = Duration.ofMillis(1500);
        MultiLocks locks = client(options().withWatchdogTimeout(lease));
        DistLock lock = locks.get(name);
        RedisNode stalled = nodes.get(2);
        stalled.pause();
        try {
            for (Duration wait : List.of(Duration.ZERO, Duration.ofMillis(500))) {
                long start = System.nanoTime();
                String outcome;
                try {
                    outcome = lock.tryLock(wait, null) ? "taken" : "false";
                } catch (LockException e) {
                    outcome = "LockException: " + e.getMessage();
                }
                long took = System.nanoTime() - start;
                System.out.printf("MultiLockTest: 1 of 3 stalled, wait %d ms: %s after %d ms%n", wait.toMillis(), outcome, millis(took));
                if (outcome.equals("taken")) {
                    fail("a MultiLock was taken with one of its three masters frozen");
                }
                assertTrue(took < wait.plusSeconds(1).toNanos(), "failing took " + millis(took) + " ms with a "
                        + wait.toMillis() + " ms wait: a frozen node must cost a node timeout, not a hang");
                assertFalse(lock.isHeldByCurrentThread());
                for (RedisNode node : nodes.subList(0, 2)) {
                    assertEquals(Map.of(), hash(node, name), node + " kept a grant of a failed round");
                }
            }
        } finally {
            stalled.resume();
        }
        long ttl = pttl(stalled, name);
        assertTrue(ttl == -2 || (ttl > 0 && ttl <= lease.toMillis()), "a late grant without a bounded expiry: PTTL " + ttl);
        Await.until("late grants of the woken node expire", lease.plusSeconds(3),
                () -> nodes.stream().allMatch(node -> fieldsOf(node, name, locks).isEmpty()));
    }

    /** Two locks by one thread count twice on every master; the first unlock leaves one, the second releases everywhere. */
    @Test
    void reentrancyCountsOnEveryNode() throws Exception {
        String name = "reentrant";
        MultiLocks locks = client(options());
        DistLock lock = locks.get(name);
        String owner = locks.clientId() + ":" + Thread.currentThread().getId();

        lock.lock();
        lock.lock();
        for (RedisNode node : nodes) {
            try (Jedis admin = node.admin()) {
                assertEquals("2", admin.hget(key(name), owner), node + " counts both holds");
            }
        }

        lock.unlock();
        assertTrue(lock.isHeldByCurrentThread(), "one of two holds released, the other remains");
        for (RedisNode node : nodes) {
            assertEquals(Map.of(owner, "1"), hash(node, name), node + " after the first unlock");
        }

        lock.unlock();
        assertFalse(lock.isHeldByCurrentThread());
        for (RedisNode node : nodes) {
            assertEquals(Map.of(), hash(node, name), node + " after the second unlock");
        }
    }

    /** A plain cycle, with the watchdog's lease and with an explicit one, leaves every master empty. */
    @Test
    void aLockUnlockCycleLeavesNoKeys() throws Exception {
        MultiLocks locks = client(options());
        DistLock lock = locks.get("cycle");

        lock.lock();
        assertTrue(lock.isHeldByCurrentThread());
        for (RedisNode node : nodes) {
            assertEquals(1, hash(node, "cycle").size(), node + " holds the lock");
        }
        lock.unlock();
        assertTrue(lock.tryLock(Duration.ZERO, Duration.ofSeconds(5)));
        lock.unlock();

        assertFalse(lock.isHeldByCurrentThread());
        for (RedisNode node : nodes) {
            try (Jedis admin = node.admin()) {
                assertEquals(0, admin.dbSize(), node + " kept keys after lock/unlock cycles: " + admin.keys("*"));
            }
        }
    }
}
