package dev.lockstep.v6;

import static dev.lockstep.v6.QuorumTestSupport.DEADLINE;
import static dev.lockstep.v6.QuorumTestSupport.channel;
import static dev.lockstep.v6.QuorumTestSupport.fieldsOf;
import static dev.lockstep.v6.QuorumTestSupport.hash;
import static dev.lockstep.v6.QuorumTestSupport.key;
import static dev.lockstep.v6.QuorumTestSupport.millis;
import static dev.lockstep.v6.QuorumTestSupport.pttl;
import static dev.lockstep.v6.QuorumTestSupport.scriptRuns;
import static dev.lockstep.v6.QuorumTestSupport.subscribers;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockstep.DistLock;
import dev.lockstep.LeaseLoss;
import dev.lockstep.LockException;
import dev.lockstep.LockOptions;
import dev.lockstep.testkit.fixture.Await;
import dev.lockstep.testkit.client.LockThread;
import dev.lockstep.testkit.fixture.RedisNode;
import dev.lockstep.v3.internal.RedissonLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.providers.PooledConnectionProvider;

/**
 * What makes {@link RedLocks} a quorum lock, and not just stage 5 run five times, proven on five
 * real {@code redis-server} processes (a stalled master is a SIGSTOPped process: its socket
 * stays open and nothing is answered, the worst kind of failure for a client).
 *
 * <ul>
 *   <li><b>A minority cannot stall the lock.</b> With one or two of five masters frozen, an
 *       acquisition still succeeds, and costs one node timeout, not a lease or a socket timeout.
 *       Two frozen masters cost one node timeout too: the requests fan out in parallel, so a
 *       slow node's wait overlaps every other node's. Sent one after another, N stalled nodes
 *       would cost N timeouts, and the time spent acquiring is taken out of the lock's validity.
 *   <li><b>No quorum, no lock, and no debris.</b> With a majority frozen the attempt fails with
 *       {@link LockException} in bounded time. When a round fails (a majority unreachable, a
 *       rival on a majority, a split vote), the grants this client did get are given back at
 *       once: left in place they would block every other client on those nodes for a whole
 *       lease, and a few such leftovers can deny everybody a quorum.
 *   <li><b>Validity.</b> A grant is only worth the time left on it: lease - elapsed - drift.
 *       A lease shorter than the round itself has run out on the first nodes before the last
 *       answered, so it must be refused (and undone), not reported as held.
 *   <li><b>Renewal counts only with a quorum.</b> A renewal that reaches a minority keeps
 *       nothing safe: a rival can take the majority. The holder must be told it lost the lock
 *       when a majority of its keys are gone, and must keep it while a majority remains.
 *   <li><b>Waiting.</b> A waiter sleeps on the release channel of every master, so a release
 *       announced by any one of them wakes it at once, instead of after the holder's lease.
 * </ul>
 *
 * <p>Time bounds are functional, not benchmarks: they tell "one node timeout" from "two" or
 * from "a lease" with wide margins for a busy 2-core machine. Every script is loaded into every
 * node first, so each lock call is exactly one EVALSHA and script counts are exact.
 */
class QuorumTest extends IndependentMastersTest {

    /** The node timeout of most tests: short, so a stalled node costs little. */
    private static final Duration NODE_TIMEOUT = Duration.ofMillis(100);
    /** A lease long enough that sleeping it out, or paying it for a stalled node, would be obvious. */
    private static final Duration LONG_LEASE = Duration.ofSeconds(30);
    /** A message wake-up costs a publish and a round or two; this allows for a busy machine. */
    private static final Duration WOKEN_WITHIN = Duration.ofMillis(1500);

    @BeforeAll
    static void startNodes() {
        startMasters(5);
        System.out.println("QuorumTest: 5 x " + fixture.description());
    }

    /** A RedLock client over all five nodes; it and its node clients are closed after the test. */
    private RedLocks client(LockOptions options) {
        return client(options, nodes);
    }

    /** A RedLock client over {@code over}; it and its node clients are closed after the test, client first. */
    private RedLocks client(LockOptions options, List<RedisNode> over) {
        return closedAfter(new RedLocks(clientsOf(over), options));
    }

    private static LockOptions options(Duration nodeTimeout) {
        return LockOptions.defaults().withNodeTimeout(nodeTimeout);
    }

    private static void pause(List<RedisNode> stalled) {
        stalled.forEach(RedisNode::pause);
    }

    private static void resume(List<RedisNode> stalled) {
        stalled.forEach(RedisNode::resume);
    }

    /** Whether no node has a field of {@code client} in lock {@code name}. */
    private static boolean noFieldAnywhere(String name, RedLocks client) {
        return nodes.stream().allMatch(node -> fieldsOf(node, name, client).isEmpty());
    }

    // ---------------------------------------------------------------- a minority cannot stall the lock

    /**
     * One of five masters frozen: four still grant, a quorum, so the lock is taken. The frozen
     * node costs exactly one node timeout (the fan-out stops listening to it), not the 30 s lease
     * and not the 1 s socket timeout of the node clients.
     *
     * <p>The frozen node runs the lock script it got as soon as it wakes: a late grant, with a
     * fresh 30 s lease. The unlock, sent while it was still frozen, queued on its lane behind a
     * {@code PING} the node answers only after the lock script, so it runs after the late grant
     * and takes it back.
     */
    @Test
    void oneStalledNodeCostsOneNodeTimeoutNotALease() throws Exception {
        RedLocks locks = client(options(NODE_TIMEOUT));
        DistLock lock = locks.get("one-stalled");
        String owner = locks.clientId() + ":" + Thread.currentThread().getId();
        List<RedisNode> stalled = nodes.subList(4, 5);
        RedisNode woken = stalled.get(0);
        long scriptsBefore = scriptRuns(woken);
        pause(stalled);
        try {
            long start = System.nanoTime();
            boolean taken = lock.tryLock(Duration.ZERO, null);
            long took = System.nanoTime() - start;
            System.out.printf("QuorumTest: 1 of 5 stalled, node timeout %d ms: acquired in %d ms%n",
                    NODE_TIMEOUT.toMillis(), millis(took));

            assertTrue(taken, "4 of 5 masters answer, a quorum of 3, yet the lock was not taken");
            assertTrue(lock.isHeldByCurrentThread());
            assertTrue(took >= NODE_TIMEOUT.toNanos(), "took " + millis(took) + " ms: the round cannot end before the "
                    + "stalled node's timeout of " + NODE_TIMEOUT.toMillis() + " ms, so it did not wait for it at all");
            assertTrue(took < Duration.ofSeconds(1).toNanos(), "took " + millis(took) + " ms with a " + NODE_TIMEOUT.toMillis()
                    + " ms node timeout: the stalled node cost a socket timeout or a lease, not a node timeout");
            for (RedisNode node : nodes.subList(0, 4)) {
                assertEquals(Map.of(owner, "1"), hash(node, "one-stalled"), node + " holds the lock for this thread once");
                assertTrue(pttl(node, "one-stalled") > LONG_LEASE.minusSeconds(5).toMillis(), node + " has the watchdog's 30 s lease");
            }

            lock.unlock();
            assertFalse(lock.isHeldByCurrentThread());
            for (RedisNode node : nodes.subList(0, 4)) {
                assertEquals(Map.of(), hash(node, "one-stalled"), node + " still has the key after unlock");
            }
        } finally {
            resume(stalled);
        }
        Await.until(woken + " runs the late lock script, then the unlock queued behind it", Duration.ofSeconds(5),
                () -> scriptRuns(woken) - scriptsBefore == 2);
        assertEquals(Map.of(), hash(woken, "one-stalled"), woken + " kept the late grant after the unlock");
    }

    /**
     * Two of five masters frozen (three left: still a quorum). Asked in parallel, both stalls
     * overlap and the round costs one node timeout; asked one after another it would cost two.
     * The node timeout is long (400 ms) so that one and two timeouts are far apart even on a
     * noisy machine: the bound is 1.75 timeouts, 700 ms, against the 800 ms a serial fan-out
     * needs at the very least.
     */
    @Test
    void requestsFanOutInParallelSoTwoStalledNodesCostOneTimeout() throws Exception {
        Duration nodeTimeout = Duration.ofMillis(400);
        RedLocks locks = client(options(nodeTimeout));
        DistLock lock = locks.get("two-stalled");
        // The first and the last node: a serial fan-out would wait for each in turn.
        List<RedisNode> stalled = List.of(nodes.get(0), nodes.get(4));
        pause(stalled);
        try {
            long start = System.nanoTime();
            boolean taken = lock.tryLock(Duration.ZERO, null);
            long took = System.nanoTime() - start;
            System.out.printf("QuorumTest: 2 of 5 stalled, node timeout %d ms: acquired in %d ms%n",
                    nodeTimeout.toMillis(), millis(took));

            assertTrue(taken, "3 of 5 masters answer, a quorum, yet the lock was not taken");
            assertTrue(took >= nodeTimeout.toNanos(), "took " + millis(took) + " ms, less than one node timeout");
            assertTrue(took < nodeTimeout.toNanos() * 7 / 4, "took " + millis(took) + " ms with two stalled nodes and a "
                    + nodeTimeout.toMillis() + " ms node timeout: the nodes were asked one after another, not in parallel");
            lock.unlock();
        } finally {
            resume(stalled);
        }
    }

    /**
     * A node client that is not a {@link RedisClient} (here a {@link UnifiedJedis} over a
     * connection provider, with one attempt per command) lends the
     * fan-out no connections, so every request goes through the node's lane thread: slower, the
     * same lock, and a stalled node still costs one node timeout.
     */
    @Test
    void nodeClientsThatLendNoConnectionsGoThroughTheLanes() throws Exception {
        String name = "plain-clients";
        List<UnifiedJedis> plain = new ArrayList<>();
        for (RedisNode node : nodes) {
            plain.add(closedAfter(new UnifiedJedis(new PooledConnectionProvider(node.address()), 1, Duration.ZERO)));
        }
        RedLocks locks = closedAfter(new RedLocks(plain, options(NODE_TIMEOUT)));
        DistLock lock = locks.get(name);
        String owner = locks.clientId() + ":" + Thread.currentThread().getId();
        List<RedisNode> stalled = nodes.subList(4, 5);
        pause(stalled);
        try {
            long start = System.nanoTime();
            assertTrue(lock.tryLock(Duration.ZERO, null), "4 of 5 masters answer, yet the lock was not taken");
            long took = System.nanoTime() - start;
            assertTrue(took < Duration.ofSeconds(1).toNanos(), "took " + millis(took) + " ms with a " + NODE_TIMEOUT.toMillis()
                    + " ms node timeout");
            for (RedisNode node : nodes.subList(0, 4)) {
                assertEquals(Map.of(owner, "1"), hash(node, name), node + " holds the lock for this thread once");
            }
            lock.unlock();
        } finally {
            resume(stalled);
        }
        for (RedisNode node : nodes) {
            Await.until(node + " has no key after the unlock", Duration.ofSeconds(5), () -> hash(node, name).isEmpty());
        }
    }

    // ---------------------------------------------------------------- no quorum, no lock, no debris

    /**
     * Three of five masters frozen: a quorum is out of reach. Every way of locking fails fast
     * with {@link LockException} (the lock's state is unknown, which is not the same as "busy"),
     * even one willing to wait 5 s, and leaves nothing on the two masters that did answer. What
     * the frozen masters find in their sockets when they wake up is bounded by the lease (here
     * a 1.5 s watchdog timeout): any grant they hand out then expires and is never renewed.
     */
    @Test
    void withoutAQuorumLockingFailsFastAndLeavesNoKeyBehind() throws Exception {
        Duration lease = Duration.ofMillis(1500);
        RedLocks locks = client(options(NODE_TIMEOUT).withWatchdogTimeout(lease));
        DistLock lock = locks.get("no-quorum");
        List<RedisNode> reachable = nodes.subList(0, 2);
        List<RedisNode> stalled = nodes.subList(2, 5);
        pause(stalled);
        try {
            List<Runnable> attempts = List.of(
                    () -> call(() -> lock.tryLock(Duration.ZERO, null)),
                    () -> call(() -> lock.tryLock(Duration.ofSeconds(5), null)),
                    lock::lock);
            for (Runnable attempt : attempts) {
                long start = System.nanoTime();
                LockException e = assertThrows(LockException.class, attempt::run);
                long took = System.nanoTime() - start;
                System.out.printf("QuorumTest: 3 of 5 stalled: failed in %d ms: %s%n", millis(took), e.getMessage());
                NoQuorumException noQuorum = assertInstanceOf(NoQuorumException.class, e.getCause());
                assertTrue(e.getMessage().contains("only 2 of 5"), "names how many nodes answered: " + e.getMessage());
                assertEquals(Set.of(3, 4, 5), noQuorum.failedNodes().keySet(), "names the nodes that failed");
                assertEquals(3, noQuorum.getSuppressed().length, "keeps each node's failure");
                // A waiting acquisition sits out ten node timeouts of unanswered rounds (a busy machine can
                // make every node late at once), then fails: bounded, and far below any lease.
                assertTrue(took < NODE_TIMEOUT.multipliedBy(25).toNanos(), "failing took " + millis(took) + " ms: "
                        + "a missing quorum must cost a few rounds, not the wait or a lease");
                assertFalse(lock.isHeldByCurrentThread());
                for (RedisNode node : reachable) {
                    assertEquals(Map.of(), hash(node, "no-quorum"), node + " kept a grant of a failed round");
                }
            }
        } finally {
            resume(stalled);
        }
        long resumedAt = System.nanoTime();
        long leftovers = nodes.stream().filter(node -> !fieldsOf(node, "no-quorum", locks).isEmpty()).count();
        for (RedisNode node : nodes) {
            long ttl = pttl(node, "no-quorum");
            assertTrue(ttl == -2 || (ttl > 0 && ttl <= lease.toMillis()), node + ": a leftover without a bounded expiry, "
                    + "PTTL " + ttl + " ms, hash " + hash(node, "no-quorum"));
        }
        Await.until("leftovers of the failed rounds expire", lease.plusSeconds(3), () -> noFieldAnywhere("no-quorum", locks));
        System.out.printf("QuorumTest: after resume, %d of 3 woken nodes held a late grant; all gone %d ms later%n",
                leftovers, millis(System.nanoTime() - resumedAt));
    }

    /**
     * A rival holds the lock on three masters, a quorum. This client's round is granted by the
     * other two, which is not enough, so it fails, and it gives those two grants back before it
     * reports failure: nodes 4 and 5 each ran exactly two scripts, the lock and its undo, and
     * hold nothing of this client afterwards. A client that waits (300 ms) gives back the grants
     * of every round it lost, too.
     */
    @Test
    void aLostRoundGivesBackTheGrantsItGot() throws Exception {
        String name = "rival-majority";
        RedLocks rivals = client(options(NODE_TIMEOUT), nodes.subList(0, 3));
        RedLocks locks = client(options(NODE_TIMEOUT));
        DistLock lock = locks.get(name);
        List<RedisNode> free = nodes.subList(3, 5);
        try (LockThread rival = new LockThread("rival")) {
            rival.run(() -> rivals.get(name).lock());
            String rivalField = rivals.clientId() + ":" + rival.threadId();
            long[] before = free.stream().mapToLong(QuorumTestSupport::scriptRuns).toArray();

            assertFalse(lock.tryLock(Duration.ZERO, null), "a rival holds 3 of 5 masters, yet this client got the lock");
            for (int i = 0; i < free.size(); i++) {
                RedisNode node = free.get(i);
                assertEquals(2, scriptRuns(node) - before[i], node + " ran the lock script and its undo");
                assertEquals(Map.of(), hash(node, name), node + " kept this client's grant after a lost round");
            }

            long start = System.nanoTime();
            assertFalse(lock.tryLock(Duration.ofMillis(300), null), "got the lock the rival holds");
            assertTrue(System.nanoTime() - start < Duration.ofSeconds(2).toNanos(), "the 300 ms wait overran");
            for (RedisNode node : free) {
                assertEquals(Map.of(), hash(node, name), node + " kept this client's grant after waiting");
            }
            for (RedisNode node : nodes.subList(0, 3)) {
                assertEquals(Map.of(rivalField, "1"), hash(node, name), node + ": the rival's hold is untouched");
            }
            rival.run(() -> rivals.get(name).unlock());
        }
    }

    /**
     * A split vote: one rival holds two masters, another holds a third, and this client gets the
     * last two. Nobody has a quorum; this client must not keep its two grants (it gives them
     * back), or the three of them could block each other until the leases run out.
     */
    @Test
    void aSplitVoteGivesBackTheGrantsItGot() throws Exception {
        String name = "split";
        RedLocks rivalA = client(options(NODE_TIMEOUT), nodes.subList(0, 2));
        RedLocks rivalB = client(options(NODE_TIMEOUT), nodes.subList(2, 3));
        RedLocks locks = client(options(NODE_TIMEOUT));
        try (LockThread a = new LockThread("rival-a"); LockThread b = new LockThread("rival-b")) {
            a.run(() -> rivalA.get(name).lock());
            b.run(() -> rivalB.get(name).lock());

            assertFalse(locks.get(name).tryLock(Duration.ZERO, null), "2 of 5 grants made a lock");
            // The grants are given back without waiting for the answers: look until they are gone.
            for (RedisNode node : nodes.subList(3, 5)) {
                Await.until(node + " gives back this client's grant after a split vote", Duration.ofSeconds(5),
                        () -> hash(node, name).isEmpty());
            }
            a.run(() -> rivalA.get(name).unlock());
            b.run(() -> rivalB.get(name).unlock());
        }
    }

    // ---------------------------------------------------------------- validity

    /**
     * A lease shorter than the round. With one master frozen and a 300 ms node timeout, a round
     * takes at least 300 ms; a 250 ms lease has run out on the first masters before the round
     * ends (validity = 250 - 300 - 4.5 < 0), so the lock must not be reported held, and the
     * round is undone. The control: the same round with a 2 s lease is granted, so the refusal
     * came from the validity check and not from the stalled node.
     */
    @Test
    void aLeaseShorterThanTheRoundIsNotGranted() throws Exception {
        String name = "validity";
        Duration nodeTimeout = Duration.ofMillis(300);
        RedLocks locks = client(options(nodeTimeout));
        DistLock lock = locks.get(name);
        List<RedisNode> stalled = nodes.subList(4, 5);
        pause(stalled);
        try {
            long before = scriptRuns(nodes.get(0));
            long start = System.nanoTime();
            boolean taken = lock.tryLock(Duration.ZERO, Duration.ofMillis(250));
            long took = System.nanoTime() - start;
            System.out.printf("QuorumTest: 250 ms lease, attempt (round and undo) took %d ms: %s%n", millis(took), taken ? "granted" : "refused");

            assertTrue(took >= nodeTimeout.toNanos(), "the round took only " + millis(took) + " ms");
            assertFalse(taken, "a 250 ms lease was reported held after a " + millis(took) + " ms round: it had expired");
            assertFalse(lock.isHeldByCurrentThread(), "an expired grant counts as held");
            assertEquals(2, scriptRuns(nodes.get(0)) - before, "node 1 ran the lock script and its undo");
            for (RedisNode node : nodes.subList(0, 4)) {
                assertEquals(Map.of(), hash(node, name), node + " kept a grant of a refused round");
            }

            Duration longEnough = Duration.ofSeconds(2);
            start = System.nanoTime();
            assertTrue(lock.tryLock(Duration.ZERO, longEnough), "control: a 2 s lease outlives the same round, and a quorum answered");
            took = System.nanoTime() - start;
            assertTrue(took >= nodeTimeout.toNanos(), "control round took only " + millis(took) + " ms");
            lock.unlock();
        } finally {
            resume(stalled);
        }
        long resumedAt = System.nanoTime();
        long wokenTtl = pttl(stalled.get(0), name);
        System.out.printf("QuorumTest: after resume, the woken node's key has PTTL %d ms (-2: none)%n", wokenTtl);
        Await.until("whatever the stalled node granted late expires", Duration.ofSeconds(5), () -> noFieldAnywhere(name, locks));
        System.out.printf("QuorumTest: late grants gone %d ms after resume%n", millis(System.nanoTime() - resumedAt));
    }

    /**
     * RedLock's description allows 1% + 2 ms of drift; the holder's own deadline (stage 4's) keeps
     * 5% + 2 ms, and that is the check. A round that ends between the two would be a grant already
     * past the deadline the holder believes it by: reported held, then lost at once. With one master frozen and a 1 s
     * node timeout the round takes at least 1000 ms; a 1054 ms lease leaves a validity of up to
     * 41 ms but a deadline 999.3 ms after the send, so the round must be refused and undone.
     */
    @Test
    void aRoundThatEndsPastTheHoldersDeadlineIsNotGranted() throws Exception {
        String name = "past-deadline";
        Duration nodeTimeout = Duration.ofSeconds(1);
        Duration lease = Duration.ofMillis(1054);
        RedLocks locks = client(options(nodeTimeout));
        DistLock lock = locks.get(name);
        CompletableFuture<LeaseLoss> lost = new CompletableFuture<>();
        lock.onLeaseLost(lost::complete);
        List<RedisNode> stalled = nodes.subList(4, 5);
        pause(stalled);
        try {
            long start = System.nanoTime();
            boolean taken = lock.tryLock(Duration.ZERO, lease);
            long took = System.nanoTime() - start;
            System.out.printf("QuorumTest: %d ms lease, %d ms round: %s%n", lease.toMillis(), millis(took),
                    taken ? "granted" : "refused");

            assertFalse(taken, "a round of " + millis(took) + " ms was granted a " + lease.toMillis() + " ms lease, whose "
                    + "holder's deadline (lease - 5% - 2 ms = 999 ms) had passed: held=" + lock.isHeldByCurrentThread()
                    + ", loss signalled=" + lost.isDone());
            for (RedisNode node : nodes.subList(0, 4)) {
                assertEquals(Map.of(), hash(node, name), node + " kept a grant of a refused round");
            }
        } finally {
            resume(stalled);
        }
        Await.until("whatever the stalled node granted late is taken back", Duration.ofSeconds(5),
                () -> noFieldAnywhere(name, locks));
        assertFalse(lost.isDone(), "a loss was signalled for a lock that was never reported held: " + lost.getNow(null));
    }

    // ---------------------------------------------------------------- renewal counts only with a quorum

    /**
     * The holder's key disappears from three of five masters (plain {@code DEL}, as a restart
     * without persistence or an admin would do it). The two left are renewed fine, but two is
     * not a quorum: a rival could take the other three. The holder must be told, within about a
     * lease (watchdog timeout 600 ms, renewed every 200 ms), and stop reporting the lock held;
     * its unlock then says the lease was lost.
     */
    @Test
    void losingTheKeyOnAMajorityLosesTheLock() throws Exception {
        String name = "renew-majority-lost";
        Duration lease = Duration.ofMillis(600);
        RedLocks locks = client(options(NODE_TIMEOUT).withWatchdogTimeout(lease));
        DistLock lock = locks.get(name);
        CompletableFuture<LeaseLoss> lost = new CompletableFuture<>();
        AtomicLong lostAt = new AtomicLong();
        lock.onLeaseLost(loss -> {
            lostAt.set(System.nanoTime());
            lost.complete(loss);
        });
        try (LockThread holder = new LockThread("holder")) {
            holder.run(lock::lock);
            assertTrue(holder.call(lock::isHeldByCurrentThread));

            long deletedAt = System.nanoTime();
            for (RedisNode node : nodes.subList(0, 3)) {
                try (Jedis admin = node.admin()) {
                    assertEquals(1, admin.del(key(name)), node + " had the holder's key");
                }
            }

            LeaseLoss loss = LockThread.get(lost, DEADLINE);
            long toldAfter = lostAt.get() - deletedAt;
            System.out.printf("QuorumTest: key deleted on 3 of 5, holder told after %d ms: %s%n", millis(toldAfter), loss.reason());
            assertEquals(holder.threadId(), loss.threadId(), "the loss names the holding thread");
            assertEquals(name, loss.lockName());
            assertTrue(toldAfter < lease.plusMillis(500).toNanos(), "the holder was told " + millis(toldAfter)
                    + " ms after losing its majority, more than about a lease (" + lease.toMillis() + " ms)");
            assertFalse(holder.call(lock::isHeldByCurrentThread), "still reports the lock held after losing the majority");
            assertThrows(IllegalMonitorStateException.class, () -> holder.run(lock::unlock),
                    "unlocking a lost lock must say it was lost");
        }
        // Nobody renews the two keys left over: they run out with the lease.
        Await.until("the minority's leftover keys expire", lease.plusSeconds(2), () -> noFieldAnywhere(name, locks));
    }

    /**
     * The holder's key disappears from two of five masters: the three left are still a quorum,
     * so the renewals still count and the holder keeps the lock. Checked once three leases' worth
     * of time has passed and at least six renewal rounds reached the masters (counted from the
     * servers' script statistics), so it is the renewals, not a leftover lease, that kept it.
     */
    @Test
    void losingTheKeyOnAMinorityKeepsTheLock() throws Exception {
        String name = "renew-minority-lost";
        Duration lease = Duration.ofMillis(600);
        RedLocks locks = client(options(NODE_TIMEOUT).withWatchdogTimeout(lease));
        DistLock lock = locks.get(name);
        CompletableFuture<LeaseLoss> lost = new CompletableFuture<>();
        lock.onLeaseLost(lost::complete);
        try (LockThread holder = new LockThread("holder")) {
            holder.run(lock::lock);
            for (RedisNode node : nodes.subList(3, 5)) {
                try (Jedis admin = node.admin()) {
                    assertEquals(1, admin.del(key(name)), node + " had the holder's key");
                }
            }
            long deletedAt = System.nanoTime();
            RedisNode witness = nodes.get(0);
            long before = scriptRuns(witness);

            Await.until("three leases pass and six renewals reach the masters", Duration.ofSeconds(10),
                    () -> System.nanoTime() - deletedAt >= 3 * lease.toNanos() && scriptRuns(witness) - before >= 6);

            assertFalse(lost.isDone(), () -> "the holder was told it lost the lock with a quorum left: " + lost.join());
            assertTrue(holder.call(lock::isHeldByCurrentThread), "a quorum still renews, yet the lock is not held");
            for (RedisNode node : nodes.subList(0, 3)) {
                assertTrue(pttl(node, name) > 0, node + " let the majority's key expire");
            }
            for (RedisNode node : nodes.subList(3, 5)) {
                assertEquals(Map.of(), hash(node, name), node + ": a renewal must not recreate a deleted key");
            }
            holder.run(lock::unlock);
            assertFalse(holder.call(lock::isHeldByCurrentThread));
        }
        for (RedisNode node : nodes) {
            assertEquals(Map.of(), hash(node, name), node + " kept the key after the unlock");
        }
        assertFalse(lost.isDone(), "an unlock is not a loss");
    }

    // ---------------------------------------------------------------- waiting

    /**
     * A waiter blocks on a lock held with a 30 s lease. The holder unlocks, which announces the
     * release on every master; the waiter wakes and takes the lock within a second or so, not
     * after the 30 s it would sleep by the lease.
     */
    @Test
    void anUnlockWakesAWaiterAtOnce() throws Exception {
        String name = "wake-on-unlock";
        RedLocks holders = client(options(NODE_TIMEOUT));
        RedLocks waiters = client(options(NODE_TIMEOUT));
        try (LockThread holder = new LockThread("holder"); LockThread waiter = new LockThread("waiter")) {
            holder.run(() -> holders.get(name).lock(LONG_LEASE));
            Future<Long> acquiredAt = sleepingWaiter(waiters, name, waiter);

            holder.run(() -> holders.get(name).unlock());
            long releasedAt = System.nanoTime();

            long acquired = LockThread.get(acquiredAt, DEADLINE);
            assertTrue(acquired > 0, "the waiter never got the released lock");
            long lag = acquired - releasedAt;
            System.out.printf("QuorumTest: waiter took the lock %d ms after the unlock%n", millis(lag));
            assertTrue(lag < WOKEN_WITHIN.toNanos(), "the waiter took " + millis(lag) + " ms after the unlock: "
                    + "it slept by the lease instead of being woken by the release");
            waiter.run(() -> waiters.get(name).unlock());
        }
    }

    /**
     * The lock's key vanishes from every master without a word (plain {@code DEL}), and a release
     * is announced on one master only: whichever it is, the waiter, subscribed on all five, wakes
     * and takes the lock at once. Without that one message it would sleep the holder's 30 s lease.
     */
    @ParameterizedTest(name = "announced on node {0} only")
    @ValueSource(ints = {0, 1, 2, 3, 4})
    void aReleaseAnnouncedOnAnyOneNodeWakesTheWaiter(int announcer) throws Exception {
        String name = "wake-on-node-" + announcer;
        for (RedisNode node : nodes) {
            try (Jedis admin = node.admin()) {
                admin.hset(key(name), "rival:1", "1");
                admin.pexpire(key(name), LONG_LEASE.toMillis());
            }
        }
        RedLocks waiters = client(options(NODE_TIMEOUT));
        try (LockThread waiter = new LockThread("waiter")) {
            Future<Long> acquiredAt = sleepingWaiter(waiters, name, waiter);

            for (RedisNode node : nodes) {
                try (Jedis admin = node.admin()) {
                    admin.del(key(name));
                }
            }
            long releasedAt;
            try (Jedis admin = nodes.get(announcer).admin()) {
                releasedAt = System.nanoTime();
                assertEquals(1, admin.publish(channel(name), RedissonLayout.RELEASED), "the waiter listens on node " + announcer);
            }

            long acquired = LockThread.get(acquiredAt, DEADLINE);
            assertTrue(acquired > 0, "the waiter slept through the release announced on node " + announcer);
            long lag = acquired - releasedAt;
            assertTrue(lag < WOKEN_WITHIN.toNanos(), "the waiter took " + millis(lag) + " ms after the release on node "
                    + announcer + ": it slept by the lease instead of being woken");
            waiter.run(() -> waiters.get(name).unlock());
        }
    }

    /**
     * Starts a waiter that waits up to 10 s for {@code name} (held by someone else with about
     * 30 s left), and returns once it is asleep: subscribed on every master, and its second try
     * (the one after subscribing) has run. The future yields when it got the lock, or -1.
     */
    private static Future<Long> sleepingWaiter(RedLocks waiters, String name, LockThread waiter) {
        RedisNode witness = nodes.get(0);
        long before = scriptRuns(witness);
        Future<Long> acquiredAt = waiter.submit(() ->
                waiters.get(name).tryLock(Duration.ofSeconds(10), LONG_LEASE) ? System.nanoTime() : -1L);
        Await.until("the waiter tried twice and sleeps subscribed on every master", DEADLINE,
                () -> scriptRuns(witness) - before >= 2 && nodes.stream().allMatch(node -> subscribers(node, name) == 1));
        assertFalse(acquiredAt.isDone(), "the waiter should be asleep, the lock is held");
        return acquiredAt;
    }

    /** Runs a call that throws checked exceptions inside a Runnable (only unchecked ones are expected). */
    private static void call(Callable<?> callable) {
        try {
            callable.call();
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
