package dev.lockstep.v5;

import static dev.lockstep.v5.Probe.channel;
import static dev.lockstep.v5.Probe.key;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockstep.DistLock;
import dev.lockstep.testkit.client.LockThread;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * How a v5 waiter wakes up. It sleeps until a release is published, and each of the three ways
 * such a design goes wrong is ruled out against a real server:
 *
 * <ul>
 *   <li>a lost wake-up: the release arrives between the waiter's last try and its sleep, and the
 *       waiter sleeps through the holder's whole lease anyway;
 *   <li>a hang: the release message never comes (key deleted or expired without a publish), and
 *       the waiter sleeps forever instead of at most the holder's remaining lease;
 *   <li>a thundering herd: one release wakes every waiter of a client, and they all hit Redis
 *       for a lock only one of them can get.
 * </ul>
 *
 * <p>Holders here take a 30 s lease, so a waiter that was not woken by the message would sleep
 * for many seconds: the generous "within 2 s" bounds tell the two apart without timing anything
 * finely. Attempts are counted from the server's own {@code INFO commandstats}.
 */
class WakeUpTest extends OneNodeTest {

    /** A lease so long that sleeping it out instead of being woken would be obvious. */
    private static final Duration LONG_LEASE = Duration.ofSeconds(30);
    /** How long waiters are willing to wait: far more than a wake-up, far less than the long lease. */
    private static final Duration WAIT = Duration.ofSeconds(10);
    /** A message wake-up takes a publish and a round trip or three; this allows for a busy 2-core box. */
    private static final Duration WOKEN_WITHIN = Duration.ofSeconds(2);
    /** How long the slow link holds each chunk: long enough to release inside, short enough to keep the test quick. */
    private static final Duration GAP = Duration.ofMillis(200);
    /** Bound on any set-up wait. */
    private static final Duration DEADLINE = Duration.ofSeconds(10);

    /** Waits until {@code runs} more scripts than {@code before} have run: the waiters' tries. */
    private static void awaitScriptRuns(String what, long before, int runs) {
        Probe.eventually(what, DEADLINE, () -> Probe.scriptRuns(node) - before, delta -> delta >= runs);
    }

    /**
     * The lost wake-up, made deterministic. The waiter's commands go through a link that delays
     * each chunk by {@link #GAP}; its subscription does not. So when Redis has run the waiter's
     * second try ("still held, 30 s left"), that reply spends {@link #GAP} on its way back. The
     * holder releases in that gap: the release message reaches the waiter's client while the
     * waiter has not even learnt it must sleep. A waiter that only listens once asleep would miss
     * it and sleep out its wait; v5 keeps the message as a permit, so the sleep ends at once.
     */
    @Test
    void aReleasePublishedBeforeTheWaiterSleepsStillWakesIt() throws Exception {
        String name = "early-release";
        PubSubLocks holders = client(node.newClient());
        PubSubLocks waiters = client(SlowCommands.to(node, GAP));
        try (LockThread holder = new LockThread("holder"); LockThread waiter = new LockThread("waiter")) {
            holder.run(() -> holders.get(name).lock(LONG_LEASE));
            long before = Probe.scriptRuns(node);

            Future<Long> acquiredAt = waiter.submit(() -> waiters.get(name).tryLock(WAIT, LONG_LEASE) ? System.nanoTime() : -1L);
            // Try, subscribe, try again: two script runs, and the second one's reply is now in the slow link.
            awaitScriptRuns("the waiter's second try reached Redis", before, 2);
            long secondTrySeen = System.nanoTime();
            assertEquals(1, Probe.subscribers(node, channel(name)), "the waiter subscribed before its second try");

            holder.run(() -> holders.get(name).unlock());
            long releasedAt = System.nanoTime();
            // Precondition, not a performance claim: the release was published while the reply was still delayed.
            assertTrue(releasedAt - secondTrySeen < GAP.toNanos() / 2, "set-up too slow to release inside the gap: "
                    + millis(releasedAt - secondTrySeen) + " ms");

            long acquired = LockThread.get(acquiredAt, DEADLINE);
            assertTrue(acquired > 0, "the waiter slept out its " + WAIT.toSeconds() + " s wait: "
                    + "the release that came before it slept was lost");
            long lag = acquired - releasedAt;
            assertTrue(lag < WOKEN_WITHIN.toNanos(), "the waiter took " + millis(lag) + " ms after the release: "
                    + "it slept until a timeout instead of being woken by the message");
            waiter.run(() -> waiters.get(name).unlock());
        }
    }

    /**
     * The same race left to nature, many times: the holder releases right when the waiter's
     * subscription is requested, plus a random 0-500 µs, so the release falls before, during or
     * after the waiter's second try and its falling asleep. Whatever the order, the waiter must
     * get the lock promptly. The count of rounds where the release came after the second try
     * (three tries instead of two) is printed, to show the race was really run.
     */
    @Test
    void aReleaseRacingTheWaitersSecondTryIsNeverLost() throws Exception {
        int rounds = 200;
        int wokenByMessage = 0;
        PubSubLocks holders = client(node.newClient());
        PubSubLocks waiters = client(node.newClient());
        Random random = new Random(42);
        try (LockThread holder = new LockThread("holder"); LockThread waiter = new LockThread("waiter")) {
            for (int round = 0; round < rounds; round++) {
                String name = "race-" + round;
                long jitterNanos = random.nextInt(500_000);
                holder.run(() -> holders.get(name).lock(LONG_LEASE));
                long before = Probe.scriptRuns(node);

                Future<Long> acquiredAt = waiter.submit(() -> waiters.get(name).tryLock(WAIT, LONG_LEASE) ? System.nanoTime() : -1L);
                long releasedAt = holder.call(() -> {
                    // The earliest public sign of the waiter's second try: its channel is being subscribed.
                    long deadline = System.nanoTime() + DEADLINE.toNanos();
                    while (!waiters.subscribedChannels().contains(channel(name)) && System.nanoTime() < deadline) {
                        Thread.onSpinWait();
                    }
                    long until = System.nanoTime() + jitterNanos;
                    while (System.nanoTime() < until) {
                        Thread.onSpinWait();
                    }
                    holders.get(name).unlock();
                    return System.nanoTime();
                });

                long acquired = LockThread.get(acquiredAt, DEADLINE);
                int round1 = round;
                assertTrue(acquired > 0, () -> "round " + round1 + ": the waiter slept out its wait; the release was lost");
                assertTrue(acquired - releasedAt < WOKEN_WITHIN.toNanos(), () -> "round " + round1 + ": the waiter took "
                        + millis(acquired - releasedAt) + " ms after the release: a timeout woke it, not the message");
                // Holder's unlock plus the waiter's tries: 3 means the second try failed and a message woke it.
                if (Probe.scriptRuns(node) - before >= 4) {
                    wokenByMessage++;
                }
                waiter.run(() -> waiters.get(name).unlock());
            }
        }
        System.out.printf("WakeUpTest: %d of %d rounds released after the waiter's second try%n", wokenByMessage, rounds);
        assertTrue(wokenByMessage > 0, "no round released after the second try: the race was never run");
    }

    /**
     * A lost message: the holder's key disappears without a publish ({@code DEL} through a plain
     * client, as a crash between delete and publish or a dropped subscription would look). The
     * waiter sleeps at most the holder's remaining lease, then finds the lock free.
     */
    @Test
    void aReleaseWithoutAMessageCostsAtMostTheHoldersRemainingLease() throws Exception {
        String name = "silent-delete";
        Duration lease = Duration.ofSeconds(2);
        PubSubLocks holders = client(node.newClient());
        PubSubLocks waiters = client(node.newClient());
        try (LockThread holder = new LockThread("holder"); LockThread waiter = new LockThread("waiter")) {
            long lockedAt = System.nanoTime();
            holder.run(() -> holders.get(name).lock(lease));
            long before = Probe.scriptRuns(node);

            Future<Long> acquiredAt = waiter.submit(() -> waiters.get(name).tryLock(WAIT, LONG_LEASE) ? System.nanoTime() : -1L);
            awaitScriptRuns("the waiter went to sleep", before, 2);
            try (Jedis plain = node.admin()) {
                assertEquals(1, plain.del(key(name)), "the holder's key was there to delete");
            }

            long acquired = LockThread.get(acquiredAt, DEADLINE);
            assertTrue(acquired > 0, "the waiter never noticed the lock was free: a lost message became a hang");
            long sinceLock = acquired - lockedAt;
            assertTrue(sinceLock < lease.plusSeconds(1).toNanos(), "the waiter got the lock " + millis(sinceLock)
                    + " ms after it was taken with a " + lease.toMillis() + " ms lease: it slept past the lease");
            waiter.run(() -> waiters.get(name).unlock());
        }
    }

    /** A holder that never unlocks (its lease, explicit, just runs out): the waiter gets in within about that lease. */
    @Test
    void anExpiredLeaseWakesTheWaiterWithinAboutThatLease() throws Exception {
        String name = "expired";
        Duration lease = Duration.ofMillis(500);
        PubSubLocks holders = client(node.newClient());
        PubSubLocks waiters = client(node.newClient());
        try (LockThread holder = new LockThread("holder"); LockThread waiter = new LockThread("waiter")) {
            long lockedAt = System.nanoTime();
            holder.run(() -> holders.get(name).lock(lease));

            long acquired = waiter.call(() -> waiters.get(name).tryLock(WAIT, LONG_LEASE) ? System.nanoTime() : -1L);
            assertTrue(acquired > 0, "the waiter never got the expired lock: an expiry without a message became a hang");
            long sinceLock = acquired - lockedAt;
            assertTrue(sinceLock < lease.plusSeconds(1).toNanos(), "the waiter got the lock " + millis(sinceLock)
                    + " ms after it was taken with a " + lease.toMillis() + " ms lease");
            waiter.run(() -> waiters.get(name).unlock());
        }
    }

    /**
     * A key with no expiry at all (written by some other tool: PTTL -1) gives the waiter no lease to
     * sleep by. It must fall back to polling, so a silent delete is still noticed promptly.
     */
    @Test
    void aKeyWithoutExpiryIsPolledNotSleptOnForever() throws Exception {
        String name = "no-expiry";
        PubSubLocks waiters = client(node.newClient());
        try (Jedis plain = node.admin(); LockThread waiter = new LockThread("waiter")) {
            plain.hset(key(name), "someone-else:1", "1");
            long before = Probe.scriptRuns(node);
            Future<Long> acquiredAt = waiter.submit(() -> waiters.get(name).tryLock(WAIT, LONG_LEASE) ? System.nanoTime() : -1L);
            awaitScriptRuns("the waiter went to sleep", before, 2);

            plain.del(key(name));
            long deletedAt = System.nanoTime();
            long acquired = LockThread.get(acquiredAt, DEADLINE);
            assertTrue(acquired > 0, "the waiter never noticed the key was gone");
            assertTrue(acquired - deletedAt < WOKEN_WITHIN.toNanos(), "the waiter took " + millis(acquired - deletedAt)
                    + " ms to notice a delete of a key without expiry");
            waiter.run(() -> waiters.get(name).unlock());
        }
    }

    /**
     * One release wakes one waiter of a client, not all of them. Eight waiters of one client queue
     * on a lock held by another client; each, once it has the lock, releases it at once, so nine
     * releases hand the lock down the queue. Counting every script run from before the waiters
     * start to the last one done: each waiter tries before it subscribes and at most once after
     * (2 x 8), then per release one woken attempt that succeeds and one unlock (8 + 8 + the
     * holder's 1): 4 x 8 + 1 = 33, however the waiters take turns, plus 2 for a release that
     * races a waiter's second try and leaves a permit behind. Waking every waiter on every
     * release adds up to 8 + 7 + ... + 1 = 36 failing attempts; spinning, far more. All eight
     * share one subscriber connection on the server.
     */
    @Test
    void aReleaseWakesOneWaiterOfAClientNotAll() throws Exception {
        String name = "crowd";
        int waiterCount = 8;
        PubSubLocks holders = client(node.newClient());
        PubSubLocks waiters = client(node.newClient());
        List<Thread> crowdThreads = new CopyOnWriteArrayList<>();
        ExecutorService crowd = Executors.newFixedThreadPool(waiterCount, task -> {
            Thread thread = new Thread(task, "v5-test-crowd");
            crowdThreads.add(thread);
            return thread;
        });
        try (LockThread holder = new LockThread("holder")) {
            holder.run(() -> holders.get(name).lock(LONG_LEASE));
            long before = Probe.scriptRuns(node);

            List<Future<Boolean>> turns = new ArrayList<>();
            for (int i = 0; i < waiterCount; i++) {
                turns.add(crowd.submit(() -> {
                    DistLock lock = waiters.get(name);
                    if (!lock.tryLock(WAIT, LONG_LEASE)) {
                        return false;
                    }
                    lock.unlock();
                    return true;
                }));
            }
            // All queued before the release, so a release that woke them all would show: each has
            // tried, one has tried again after subscribing, and every waiter thread is parked.
            Probe.eventually("all waiters queued", DEADLINE, () -> Probe.scriptRuns(node) - before >= waiterCount + 1
                    && crowdThreads.size() == waiterCount && crowdThreads.stream().allMatch(WakeUpTest::isParked), ok -> ok);
            assertEquals(1, Probe.subscribers(node, channel(name)), "the waiters of one client share one subscription");

            holder.run(() -> holders.get(name).unlock());
            for (Future<Boolean> turn : turns) {
                assertTrue(LockThread.get(turn, DEADLINE), "a waiter never got the lock");
            }
            long cost = Probe.scriptRuns(node) - before;
            long oneWakeUpPerRelease = 4L * waiterCount + 1 + 2;
            System.out.printf("WakeUpTest: %d releases handed %d waiters the lock for %d script runs (limit %d)%n",
                    waiterCount + 1, waiterCount, cost, oneWakeUpPerRelease);
            assertTrue(cost <= oneWakeUpPerRelease, "handing the lock to " + waiterCount + " waiters took " + cost
                    + " script runs; one wake-up per release costs at most " + oneWakeUpPerRelease
                    + ": releases woke several waiters of the same client");
            Probe.eventually("the waiters' client unsubscribed once all were done", DEADLINE,
                    waiters::subscribedChannels, Set::isEmpty);
        } finally {
            crowd.shutdownNow();
            assertTrue(crowd.awaitTermination(DEADLINE.toMillis(), TimeUnit.MILLISECONDS), "a waiter thread hung");
        }
    }

    private static boolean isParked(Thread thread) {
        Thread.State state = thread.getState();
        return state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING;
    }

    private static long millis(long nanos) {
        return TimeUnit.NANOSECONDS.toMillis(nanos);
    }
}
