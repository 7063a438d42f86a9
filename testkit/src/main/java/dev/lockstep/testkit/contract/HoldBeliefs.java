package dev.lockstep.testkit.contract;

import dev.lockstep.DistLock;
import dev.lockstep.Guarantee;
import dev.lockstep.LeaseLostException;
import dev.lockstep.LockHold;
import dev.lockstep.LockOptions;
import dev.lockstep.Locks;
import dev.lockstep.testkit.client.LockThread;
import dev.lockstep.testkit.fault.FaultyLink;
import dev.lockstep.testkit.fault.HeldSends;
import dev.lockstep.testkit.fixture.Await;
import dev.lockstep.testkit.fixture.ServerSecurity;
import dev.lockstep.testkit.scenario.ScenarioContext;
import dev.lockstep.testkit.stage.Stage;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Part of {@link LockContract}: what a hold or an extend leaves the client believing is what Redis
 * stores, through the races and refusals around them: a renewal in flight when the owner sets its
 * own lease, an extend refused at the call, a validity check while Redis is out of reach, a dropped
 * hold whose listener mentions it.
 */
public interface HoldBeliefs extends StageUnderTest {

    /**
     * The watchdog decided to renew and was held up before sending (a GC pause, a busy processor)
     * when the owner extended: the renewal's lease must not land after the owner's.
     */
    @Test
    default void aRenewalInFlightNeverUndoesAnExtend() throws Exception {
        assumeTrue(claims(Guarantee.LEASE_RENEWAL), "the stage does not claim LEASE_RENEWAL");
        assumeFalse(stage().multiNode(), "a quorum stage sends to its nodes past a client's command executor");
        assumeTrue(security() == ServerSecurity.NONE, "plays alike on any transport: the plain run plays it");
        HeldSends redis = closedAfterTest(HeldSends.to(nodes().get(0).address()));
        // A renewal a second after the lock, and two more before the lease ends: a busy machine's stall of a
        // second between the lock and its first renewal (a JDK 25 run lost a 1.5 s hold so) leaves it held.
        Locks client = closedAfterTest(stage().open(redis, LockOptions.defaults().withWatchdogTimeout(Duration.ofSeconds(3))));
        DistLock lock = client.get("renewal-in-flight");
        DistLock rival = open().get("renewal-in-flight");
        try (LockThread holder = new LockThread("holder")) {
            holder.run(lock::lock);
            redis.holdNext(thread -> thread.getName().startsWith("lockstep-watchdog-"));
            assertTrue(redis.awaitHeld(BOUNDED), "no renewal came within " + BOUNDED);
            Future<Object> extended = holder.submit(() -> {
                lock.extend(Duration.ofSeconds(20));
                return null;
            });
            Await.until("the extend is done, or waits for the renewal in flight", BOUNDED,
                    () -> extended.isDone() || holder.thread().getState() == Thread.State.BLOCKED);
            redis.letGo();
            assertTrue(redis.awaitAnswered(BOUNDED), "the renewal let go got no answer");
            LockThread.get(extended, BOUNDED);
            Duration left = rival.remainingLease();
            assertTrue(left.compareTo(Duration.ofSeconds(10)) > 0,
                    "the renewal landed after the extend: Redis keeps " + left + " where the holder believes 20 s");
            assertTrue(holder.call(lock::isHeldByCurrentThread));
            holder.run(lock::unlock);
        }
    }

    /**
     * An extend sent just before the hold's own deadline and answered after it: the hold is lost by
     * then (its holder may have been told), so the extend throws and leaves no lease in Redis for nobody.
     */
    @Test
    default void anExtendAnsweredPastTheDeadlineLeavesNoLeaseBehind() throws Exception {
        assumeTrue(claims(Guarantee.LEASE_LOSS_SIGNAL), "the stage keeps no deadline of its own");
        assumeFalse(stage().multiNode(), "a quorum stage sends to its nodes past a client's command executor");
        assumeTrue(security() == ServerSecurity.NONE, "plays alike on any transport: the plain run plays it");
        HeldSends redis = closedAfterTest(HeldSends.to(nodes().get(0).address()));
        Locks client = closedAfterTest(stage().open(redis, LockOptions.defaults()));
        DistLock rival = open().get("extended-late");
        // A lease of 4 s leaves 202 ms between the hold's own deadline and the key's expiry: the extend runs there.
        // And a loaded machine has seconds to send it before the deadline (at 2 s a JDK 25 run once did not).
        LockHold hold = client.get("extended-late").tryAcquire(Duration.ZERO, Duration.ofSeconds(4)).orElseThrow();
        try (LockThread extender = new LockThread("extender")) {
            redis.holdNext(thread -> thread == extender.thread());
            Future<Object> extended = extender.submit(() -> {
                hold.extend(Duration.ofSeconds(30));
                return null;
            });
            assertTrue(redis.awaitHeld(BOUNDED), "the extend was never sent");
            Await.until("the hold's own deadline passed", BOUNDED, () -> !hold.isValid());
            redis.letGo();
            assertThrows(LeaseLostException.class, () -> LockThread.get(extended, BOUNDED),
                    "an extend answered after the hold's deadline");
        }
        assertTrue(rival.tryLock(Duration.ofSeconds(3), null), "Redis kept the late extend's 30 s lease for nobody");
        rival.unlock();
    }

    /**
     * A hold taken after a wait runs its lease from the grant, as the lock's own hold of it does:
     * counted from the call, it would look lost while the lock and Redis still hold it.
     */
    @Test
    default void aHoldTakenAfterAWaitRunsItsLeaseFromTheGrant() throws Exception {
        assumeTrue(claims(Guarantee.LEASE_LOSS_SIGNAL), "before stage 4 a hold's lease counts from the call");
        assumeTrue(security() == ServerSecurity.NONE, "plays alike on any transport: the plain run plays it");
        assertTrue(open().get("waited-for").tryLock(Duration.ZERO, Duration.ofMillis(2400)), "the first holder");
        LockHold hold = open().get("waited-for").tryAcquire(BOUNDED, Duration.ofSeconds(4)).orElseThrow();
        long granted = System.nanoTime();
        Await.until("the hold ran out", BOUNDED, () -> !hold.isValid());
        Duration lived = Duration.ofNanos(System.nanoTime() - granted);
        // The lock believes a 4 s lease for 3.8 s from the granting round's send; counted from the call it would
        // be 1.4 s. The margin between is for that round, which a busy machine has kept past half a second.
        assertTrue(lived.compareTo(Duration.ofMillis(2600)) > 0,
                "a hold of 4 s, taken after a wait of 2.4 s, looked lost " + lived.toMillis() + " ms after the grant");
    }

    /** An extend refused before anything is sent (a bad lease, a closed client) leaves the hold as valid as it was. */
    @Test
    default void aRefusedExtendLeavesTheHoldAsItWas() throws Exception {
        LockHold hold = open().get("refused-extend").tryAcquire(Duration.ZERO, null).orElseThrow();
        for (Duration bad : List.of(Duration.ZERO, Duration.ofSeconds(-1), Duration.ofMillis(5))) {
            assertThrows(IllegalArgumentException.class, () -> hold.extend(bad), "an extend of " + bad);
            assertTrue(hold.isValid(), "a refused extend of " + bad + " made a live hold look lost");
        }
        hold.release();
        Locks closing = open();
        LockHold orphan = closing.get("refused-extend-closed").tryAcquire(Duration.ZERO, Duration.ofSeconds(6)).orElseThrow();
        closing.close();
        boolean before = orphan.isValid();
        assertThrows(IllegalStateException.class, () -> orphan.extend(Duration.ofMillis(10)), "an extend on a closed client");
        // Past the refused lease: had the hold trusted it, it would have run out by now.
        Await.pause(Duration.ofMillis(50));
        assertEquals(before, orphan.isValid(), "an extend a closed client never sent changed the hold's validity");
    }

    /** Whether a hold is valid is local and instant: with Redis out of reach it neither waits nor throws. */
    @Test
    default void aHoldsValidityNeverAsksRedis() throws Exception {
        assumeTrue(security() == ServerSecurity.NONE, "plays alike on any transport: the plain run plays it");
        try (ScenarioContext context = new ScenarioContext(stage(), fixture())) {
            List<FaultyLink> links = context.links();
            LockOptions options = Stage.leaseOptions(Duration.ofSeconds(20)).withNodeTimeout(Duration.ofMillis(500));
            DistLock lock = context.actorBehind("A", links, options).locks().get("valid-offline");
            LockHold hold = lock.tryAcquire(Duration.ZERO, Duration.ofSeconds(20)).orElseThrow();
            links.forEach(FaultyLink::blackhole);
            assertTrue(hold.isValid(), "a hold inside its lease is no longer valid with Redis out of reach");
            links.forEach(FaultyLink::heal);
            hold.release();
        }
    }

    /** Alone: it asks for a full collection until the dropped hold is found, and each one stops every thread. */
    @Test
    @PlaysAlone
    default void aDroppedHoldIsReleasedEvenIfItsListenerMentionsIt() throws Exception {
        DistLock other = open().get("dropped-listened");
        dropListenedHold(open().get("dropped-listened"));
        Await.until("the dropped hold is released", BOUNDED, () -> {
            System.gc();
            return other.tryLock();
        });
        other.unlock();
    }

    /** Takes {@code lock} as a hold whose loss listener mentions it, and lets go of every reference but the listener's. */
    private static void dropListenedHold(DistLock lock) throws InterruptedException {
        LockHold hold = lock.tryAcquire(Duration.ZERO, Duration.ofSeconds(60)).orElseThrow();
        hold.onLost(loss -> System.err.println("lost: " + hold));
    }
}
