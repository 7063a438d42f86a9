package dev.lockstep.v5;

import static dev.lockstep.v5.Probe.channel;
import static dev.lockstep.v5.Probe.key;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockstep.DistLock;
import dev.lockstep.testkit.client.LockThread;
import dev.lockstep.testkit.client.Threads;
import java.time.Duration;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import redis.clients.jedis.Jedis;

/**
 * What an interrupt does to a v5 waiter. {@code lockInterruptibly()} and {@code tryLock(wait, ...)}
 * must end the wait promptly with {@link InterruptedException}, and leave nothing behind: no hold
 * (neither the local bookkeeping nor an owner field in Redis: a field would be a lock nobody
 * unlocks until its lease ends) and no subscription (a leaked channel keeps the subscriber
 * thread and its connection alive for good). Plain {@code lock()} is not interruptible, as
 * {@link java.util.concurrent.locks.Lock} says: it keeps waiting and returns holding the lock,
 * with the interrupt flag set for the caller to see.
 *
 * <p>The waiter sleeps on a lock held with a 30 s lease, so "promptly" (under 1 s) cannot be
 * confused with the sleep ending by itself.
 */
class InterruptTest extends OneNodeTest {

    private static final Duration LONG_LEASE = Duration.ofSeconds(30);
    private static final Duration WAIT = Duration.ofSeconds(20);
    /** An interrupt ends a sleep at once; this allows for thread scheduling on a busy 2-core box. */
    private static final Duration PROMPTLY = Duration.ofSeconds(1);
    private static final Duration GIVEN_BACK = Threads.virtual() ? Duration.ofSeconds(1) : Duration.ZERO;
    private static final Duration DEADLINE = Duration.ofSeconds(10);

    /** The two interruptible ways to wait. */
    enum Wait {
        LOCK_INTERRUPTIBLY {
            @Override
            boolean acquire(DistLock lock) throws InterruptedException {
                lock.lockInterruptibly();
                return true;
            }
        },
        TRY_LOCK_WITH_WAIT {
            @Override
            boolean acquire(DistLock lock) throws InterruptedException {
                return lock.tryLock(WAIT, LONG_LEASE);
            }
        };

        abstract boolean acquire(DistLock lock) throws InterruptedException;
    }

    /** How a wait ended, seen from the waiting thread itself (holds are per thread). */
    record Outcome(boolean acquired, boolean threw, boolean heldAfter, boolean flagAfter, long at) {

        static Outcome of(DistLock lock, Wait how) {
            try {
                boolean acquired = how.acquire(lock);
                return new Outcome(acquired, false, lock.isHeldByCurrentThread(), Thread.currentThread().isInterrupted(),
                        System.nanoTime());
            } catch (InterruptedException e) {
                return new Outcome(false, true, lock.isHeldByCurrentThread(), Thread.currentThread().isInterrupted(),
                        System.nanoTime());
            }
        }
    }

    /** Waits until the waiter has tried twice (before and after subscribing): it is asleep or about to be. */
    private static void awaitAsleep(long scriptRunsBefore) {
        Probe.eventually("the waiter tried twice and went to sleep", DEADLINE,
                () -> Probe.scriptRuns(node) - scriptRunsBefore, delta -> delta >= 2);
    }

    /** No owner field of {@code client} in the lock's hash: it holds nothing there. */
    /** Interrupts the waiter: it must throw promptly, believe it holds nothing, and leave no field or subscription. */
    private static void interruptAndExpectCleanExit(LockThread waiter, Future<Outcome> waiting, PubSubLocks waiters,
                                                    String name) throws Exception {
        long interruptedAt = System.nanoTime();
        waiter.thread().interrupt();
        Outcome outcome = LockThread.get(waiting, DEADLINE);

        assertTrue(outcome.threw(), "the interrupted waiter did not throw InterruptedException: " + outcome);
        assertTrue(outcome.at() - interruptedAt < PROMPTLY.toNanos(), "the interrupted waiter threw only after "
                + TimeUnit.NANOSECONDS.toMillis(outcome.at() - interruptedAt) + " ms");
        assertFalse(outcome.heldAfter(), "the interrupted waiter thinks it holds the lock");
        assertNoFieldOf(waiters, name);
        assertNoSubscriptionLeft(waiters, name);
    }

    /**
     * No field of {@code client} in the lock's hash: at once on a platform thread; within
     * {@link #GIVEN_BACK} on a virtual thread, whose interrupt may close the socket under a grant the
     * watchdog's give-back thread then undoes (the holder's lease here is far longer).
     */
    private static void assertNoFieldOf(PubSubLocks client, String name) {
        Probe.eventually("the interrupted waiter's field is in the lock's hash", GIVEN_BACK, () -> Probe.owners(node, name),
                owners -> owners.stream().noneMatch(field -> field.startsWith(client.clientId() + ":")));
    }

    /** Once its waiters are gone, a client listens on nothing, and the server agrees. */
    private static void assertNoSubscriptionLeft(PubSubLocks client, String name) {
        Probe.eventually("the client still listens for releases of '" + name + "'", DEADLINE,
                client::subscribedChannels, Set::isEmpty);
        Probe.eventually("the server still has subscribers on " + channel(name), DEADLINE,
                () -> Probe.subscribers(node, channel(name)), count -> count == 0);
    }

    @ParameterizedTest
    @EnumSource(Wait.class)
    void anInterruptedWaiterThrowsPromptlyHoldsNothingAndLeavesNoSubscription(Wait how) throws Exception {
        String name = "asleep-" + how;
        PubSubLocks holders = client(node.newClient());
        PubSubLocks waiters = client(node.newClient());
        try (LockThread holder = new LockThread("holder"); LockThread waiter = new LockThread("waiter")) {
            holder.run(() -> holders.get(name).lock(LONG_LEASE));
            long before = Probe.scriptRuns(node);
            Future<Outcome> waiting = waiter.submit(() -> Outcome.of(waiters.get(name), how));
            awaitAsleep(before);

            interruptAndExpectCleanExit(waiter, waiting, waiters, name);

            // The lock is still the holder's alone, and free once it lets go.
            assertEquals(Set.of(holders.clientId() + ":" + holder.threadId()), Probe.owners(node, name));
            holder.run(() -> holders.get(name).unlock());
            assertFalse(exists(name), "someone holds the lock after its only holder unlocked");
        }
    }

    /** The {@link java.util.concurrent.locks.Lock} contract: an interrupt flag set on entry throws at once, before any Redis call. */
    @ParameterizedTest
    @EnumSource(Wait.class)
    void aThreadInterruptedBeforeItAsksThrowsWithoutTakingEvenAFreeLock(Wait how) throws Exception {
        String name = "pre-interrupted-" + how;
        PubSubLocks waiters = client(node.newClient());
        try (LockThread waiter = new LockThread("waiter")) {
            long before = Probe.scriptRuns(node);
            Outcome outcome = waiter.call(() -> {
                Thread.currentThread().interrupt();
                return Outcome.of(waiters.get(name), how);
            });
            assertTrue(outcome.threw(), "an already interrupted thread did not get InterruptedException: " + outcome);
            assertFalse(outcome.heldAfter());
            assertEquals(before, Probe.scriptRuns(node), "an already interrupted thread still asked Redis");
            assertFalse(exists(name), "an already interrupted thread took the lock");
            assertTrue(waiters.subscribedChannels().isEmpty());
        }
    }

    /**
     * An interrupt and a release at the same moment, many times over, in random order: the waiter
     * may win the lock or throw, but never both. If it throws, it holds nothing, here or in Redis;
     * if it returns, it holds the lock and can unlock it.
     */
    @Test
    void anInterruptRacingTheReleaseNeverLeavesAHoldBehind() throws Exception {
        int rounds = 100;
        int acquired = 0;
        PubSubLocks holders = client(node.newClient());
        PubSubLocks waiters = client(node.newClient());
        Random random = new Random(7);
        try (LockThread holder = new LockThread("holder"); LockThread waiter = new LockThread("waiter")) {
            for (int round = 0; round < rounds; round++) {
                String name = "race-" + round;
                Wait how = Wait.values()[round % 2];
                holder.run(() -> holders.get(name).lock(LONG_LEASE));
                long before = Probe.scriptRuns(node);
                Future<Outcome> waiting = waiter.submit(() -> Outcome.of(waiters.get(name), how));
                awaitAsleep(before);

                CountDownLatch go = new CountDownLatch(1);
                Future<?> release = holder.submit(() -> {
                    go.await();
                    holders.get(name).unlock();
                    return null;
                });
                go.countDown();
                long spinUntil = System.nanoTime() + random.nextInt(300_000);
                while (System.nanoTime() < spinUntil) {
                    Thread.onSpinWait();
                }
                waiter.thread().interrupt();
                LockThread.get(release, DEADLINE);
                Outcome outcome = LockThread.get(waiting, DEADLINE);

                String where = "round " + round + " (" + how + "): " + outcome;
                if (outcome.acquired()) {
                    acquired++;
                    assertTrue(outcome.heldAfter(), where + ": took the lock but does not know it");
                    assertEquals(Set.of(waiters.clientId() + ":" + waiter.threadId()), Probe.owners(node, name), where);
                    waiter.run(() -> waiters.get(name).unlock());
                } else {
                    assertTrue(outcome.threw(), where + ": neither took the lock nor was interrupted");
                    assertFalse(outcome.heldAfter(), where + ": threw but thinks it holds the lock");
                    assertNoFieldOf(waiters, name);
                }
                assertFalse(exists(name), where + ": the lock is still held after the round");
            }
            assertNoSubscriptionLeft(waiters, "race-" + (rounds - 1));
        }
        System.out.printf("InterruptTest: %d of %d racing waiters took the lock, the rest were interrupted%n",
                acquired, rounds);
    }

    /**
     * Two waiters of one client on one lock: the second waits behind the first (for its turn, or
     * on the channel). Interrupting the second must not disturb the first: the second throws
     * promptly, holding nothing; the first still gets the lock on the release; and once both are
     * gone, so is the subscription.
     */
    @ParameterizedTest
    @EnumSource(Wait.class)
    void anInterruptedWaiterBehindAnotherLeavesWithoutDisturbingIt(Wait how) throws Exception {
        String name = "queued-" + how;
        PubSubLocks holders = client(node.newClient());
        PubSubLocks waiters = client(node.newClient());
        try (LockThread holder = new LockThread("holder"); LockThread first = new LockThread("first");
                LockThread second = new LockThread("second")) {
            holder.run(() -> holders.get(name).lock(LONG_LEASE));
            long before = Probe.scriptRuns(node);
            Future<Outcome> firstWaiting = first.submit(() -> Outcome.of(waiters.get(name), Wait.TRY_LOCK_WITH_WAIT));
            awaitAsleep(before);
            long runsBeforeSecond = Probe.scriptRuns(node);
            Future<Outcome> secondWaiting = second.submit(() -> Outcome.of(waiters.get(name), how));
            // The second has asked Redis once and is parked, behind the first or beside it.
            Probe.eventually("the second waiter is waiting", DEADLINE,
                    () -> Probe.scriptRuns(node) > runsBeforeSecond && isParked(second.thread()), waiting -> waiting);

            long interruptedAt = System.nanoTime();
            second.thread().interrupt();
            Outcome interrupted = LockThread.get(secondWaiting, DEADLINE);
            assertTrue(interrupted.threw(), "the interrupted waiter did not throw InterruptedException: " + interrupted);
            assertTrue(interrupted.at() - interruptedAt < PROMPTLY.toNanos(), "the interrupted waiter threw only after "
                    + TimeUnit.NANOSECONDS.toMillis(interrupted.at() - interruptedAt) + " ms");
            assertFalse(interrupted.heldAfter());
            assertFalse(firstWaiting.isDone(), "the first waiter stopped waiting when the second was interrupted");

            holder.run(() -> holders.get(name).unlock());
            Outcome firstOutcome = LockThread.get(firstWaiting, DEADLINE);
            assertTrue(firstOutcome.acquired() && firstOutcome.heldAfter(), "the first waiter did not get the lock: "
                    + firstOutcome);
            assertEquals(Set.of(waiters.clientId() + ":" + first.threadId()), Probe.owners(node, name));
            first.run(() -> waiters.get(name).unlock());
            assertNoSubscriptionLeft(waiters, name);
        }
    }

    /**
     * Plain {@code lock()} ignores interrupts: interrupted while asleep, it goes back to waiting
     * (v5 wakes, asks Redis again, and sleeps again), does not return while the lock is held, and
     * returns holding it once released, with the interrupt flag set.
     */
    @Test
    void plainLockKeepsWaitingAndReturnsHoldingWithTheFlagSet() throws Exception {
        String name = "uninterruptible";
        PubSubLocks holders = client(node.newClient());
        PubSubLocks waiters = client(node.newClient());
        try (LockThread holder = new LockThread("holder"); LockThread waiter = new LockThread("waiter")) {
            holder.run(() -> holders.get(name).lock(LONG_LEASE));
            long before = Probe.scriptRuns(node);
            Future<Outcome> waiting = waiter.submit(() -> {
                DistLock lock = waiters.get(name);
                lock.lock(LONG_LEASE);
                return new Outcome(true, false, lock.isHeldByCurrentThread(), Thread.currentThread().isInterrupted(),
                        System.nanoTime());
            });
            awaitAsleep(before);

            long atInterrupt = Probe.scriptRuns(node);
            waiter.thread().interrupt();
            Probe.eventually("the interrupted lock() went back to waiting", DEADLINE,
                    () -> Probe.scriptRuns(node) > atInterrupt && isParked(waiter.thread()), back -> back);
            assertFalse(waiting.isDone(), "lock() returned while another client held the lock");

            holder.run(() -> holders.get(name).unlock());
            Outcome outcome = LockThread.get(waiting, DEADLINE);
            assertTrue(outcome.heldAfter(), "lock() returned without the lock");
            assertTrue(outcome.flagAfter(), "lock() swallowed the interrupt: the flag is not set");
            assertEquals(Set.of(waiters.clientId() + ":" + waiter.threadId()), Probe.owners(node, name));
            waiter.run(() -> waiters.get(name).unlock());
            assertNoSubscriptionLeft(waiters, name);
        }
    }

    /**
     * An interrupt that lands while the waiter's first try is still on the wire, before it
     * subscribes. The waiter's commands go through a link that delays each chunk by 200 ms, so
     * once Redis has run the first try, its reply is 200 ms away and the interrupt is certain to
     * arrive in between. The waiter must still throw promptly and leave no subscription behind.
     *
     * <p>Regression test for a bug found while writing these tests (reported to the lead): in the
     * first v5 version, {@code Subscriber.join} counted the waiter in ({@code users++},
     * subscribing the channel) and then waited for the confirmation with
     * {@code CountDownLatch.await}, which throws at once for an interrupted thread, and the caller
     * invoked {@code join} outside its {@code try/finally}, so the matching {@code leave} never
     * ran: the channel, the subscriber thread and its connection leaked until the client closed.
     */
    @ParameterizedTest
    @EnumSource(Wait.class)
    void anInterruptDuringTheFirstTryLeavesNoSubscription(Wait how) throws Exception {
        String name = "first-try-" + how;
        PubSubLocks holders = client(node.newClient());
        PubSubLocks waiters = client(SlowCommands.to(node, Duration.ofMillis(200)));
        try (LockThread holder = new LockThread("holder"); LockThread waiter = new LockThread("waiter")) {
            holder.run(() -> holders.get(name).lock(LONG_LEASE));
            long before = Probe.scriptRuns(node);
            Future<Outcome> waiting = waiter.submit(() -> Outcome.of(waiters.get(name), how));
            Probe.eventually("the waiter's first try reached Redis", DEADLINE,
                    () -> Probe.scriptRuns(node) - before, delta -> delta >= 1);
            assertTrue(waiters.subscribedChannels().isEmpty(), "precondition: the waiter has not subscribed yet");

            interruptAndExpectCleanExit(waiter, waiting, waiters, name);
            holder.run(() -> holders.get(name).unlock());
        }
    }

    private static boolean isParked(Thread thread) {
        Thread.State state = thread.getState();
        return state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING;
    }

    private static boolean exists(String name) {
        try (Jedis admin = node.admin()) {
            return admin.exists(key(name));
        }
    }
}
