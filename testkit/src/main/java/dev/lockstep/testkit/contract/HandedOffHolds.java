package dev.lockstep.testkit.contract;

import dev.lockstep.DistLock;
import dev.lockstep.Guarantee;
import dev.lockstep.LeaseLoss;
import dev.lockstep.LeaseLostException;
import dev.lockstep.LockException;
import dev.lockstep.LockHold;
import dev.lockstep.LockOptions;
import dev.lockstep.Locks;
import dev.lockstep.testkit.client.LockThread;
import dev.lockstep.testkit.fault.FaultyLink;
import dev.lockstep.testkit.fixture.Await;
import dev.lockstep.testkit.fixture.ServerSecurity;
import dev.lockstep.testkit.scenario.ScenarioContext;
import dev.lockstep.testkit.stage.Stage;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Part of {@link LockContract}: holds that belong to no thread ({@link DistLock#tryAcquire}) and the
 * owner-checked new lease ({@link DistLock#extend}). A hold is taken on one thread and extended or
 * released on another; its loss is signalled; an extend or release whose reply is lost leaves the
 * client believing no more than Redis stores.
 */
public interface HandedOffHolds extends StageUnderTest {

    /** The lease a hold is taken with before it is extended: longer than a busy machine stalls between the two. */
    Duration FIRST_LEASE = Duration.ofSeconds(6);

    /** Whether the stage can tell its holder's key from another's: every stage but the first. */
    private boolean canExtend() {
        return stage().claims().contains(Guarantee.OWNER_ONLY_RELEASE);
    }

    @Test
    default void aHoldTakenOnOneThreadIsReleasedOnAnother() throws Exception {
        DistLock lock = open().get("handed-off");
        DistLock other = open().get("handed-off");
        LockHold hold = lock.tryAcquire(Duration.ZERO, null).orElseThrow();
        assertEquals("handed-off", hold.lockName());
        assertTrue(hold.isValid());
        assertFalse(other.tryLock(Duration.ZERO, null), "another client took a held lock");
        try (LockThread elsewhere = new LockThread("releaser")) {
            assertEquals(stage().fenced(), elsewhere.call(hold::token).isPresent(), "a token on another thread");
            elsewhere.run(hold::release);
            if (stage().fenced()) {
                assertThrows(IllegalMonitorStateException.class, hold::token, "the token of a released hold");
            }
            assertFalse(elsewhere.call(hold::isValid));
        }
        assertThrows(IllegalMonitorStateException.class, hold::release, "a second release");
        hold.close();
        assertTrue(other.tryLock(Duration.ofSeconds(1), null), "the release on another thread did not free the lock");
        other.unlock();
    }

    @Test
    default void aHoldIsAnOwnerOfItsOwn() throws Exception {
        DistLock lock = open().get("own-owner");
        try (LockHold hold = lock.tryAcquire(Duration.ZERO, null).orElseThrow()) {
            assertFalse(lock.isHeldByCurrentThread(), "the taking thread holds the lock itself");
            assertFalse(lock.tryLock(Duration.ZERO, null), "the taking thread re-entered a hold that is not its own");
            assertTrue(lock.tryAcquire(Duration.ofMillis(100), null).isEmpty(), "a second hold of a held lock");
            assertTrue(hold.isValid());
            if (canExtend()) {
                assertThrows(IllegalMonitorStateException.class, lock::unlock, "the thread unlocked the hold's lock");
            }
        }
    }

    @Test
    default void aHoldIsExtendedOnAnotherThread() throws Exception {
        DistLock lock = open().get("extended");
        DistLock other = open().get("extended");
        long taken = System.nanoTime();
        // Long enough for a busy 2-core machine, where a stage-6 round and a thread's start have taken seconds:
        // the hold's deadline counts from before the round and keeps a margin.
        LockHold hold = lock.tryAcquire(Duration.ZERO, FIRST_LEASE).orElseThrow();
        try (LockThread elsewhere = new LockThread("extender")) {
            if (!canExtend()) {
                elsewhere.run(() -> assertThrows(UnsupportedOperationException.class, () -> hold.extend(Duration.ofSeconds(5))));
                hold.release();
                return;
            }
            elsewhere.run(() -> hold.extend(FIRST_LEASE.multipliedBy(2)));
            assertTrue(other.remainingLease().compareTo(FIRST_LEASE) > 0, "the extend did not reach Redis");
            Await.until("the first lease would have run out", BOUNDED,
                    () -> System.nanoTime() - taken > FIRST_LEASE.plusMillis(300).toNanos());
            assertTrue(hold.isValid(), "an extended hold is no longer valid");
            assertFalse(other.tryLock(Duration.ZERO, null), "another client got in after the first lease");
            elsewhere.run(() -> hold.extend(Duration.ofMillis(300)));
        }
        assertTrue(other.tryLock(Duration.ofSeconds(3), null), "the shorter lease did not end the hold");
        Await.until("the hold knows its lease ran out", BOUNDED, () -> !hold.isValid());
        other.unlock();
        assertThrows(IllegalMonitorStateException.class, hold::close, "closing a hold whose lease ran out");
    }

    /** Alone: it asks for a full collection until the dropped hold is found, and each one stops every thread. */
    @Test
    @PlaysAlone
    default void aHoldDroppedUnreleasedIsReleasedWhenCollected() throws Exception {
        DistLock other = open().get("dropped");
        assertTrue(open().get("dropped").tryAcquire(Duration.ZERO, Duration.ofSeconds(60)).isPresent());
        Await.until("the dropped hold is released", BOUNDED, () -> {
            System.gc();
            return other.tryLock();
        });
        other.unlock();
    }

    @Test
    default void aThreadExtendsOnlyItsOwnHold() throws Exception {
        DistLock lock = open().get("thread-extended");
        Class<? extends RuntimeException> refused = canExtend() ? IllegalMonitorStateException.class
                : UnsupportedOperationException.class;
        assertThrows(refused, () -> lock.extend(Duration.ofSeconds(5)), "extending a lock this thread does not hold");
        assertTrue(lock.tryLock(Duration.ZERO, FIRST_LEASE));
        if (canExtend()) {
            lock.extend(FIRST_LEASE.multipliedBy(4));
            assertTrue(lock.remainingLease().compareTo(FIRST_LEASE.multipliedBy(2)) > 0, "the extend did not reach Redis");
            try (LockThread elsewhere = new LockThread("not-the-holder")) {
                elsewhere.run(() -> assertThrows(IllegalMonitorStateException.class, () -> lock.extend(Duration.ofSeconds(1))));
            }
        }
        lock.unlock();
    }

    @Test
    default void badLeasesAndWaitsAreRefusedAtTheCall() throws Exception {
        DistLock lock = open().get("bad-hold");
        assertTrue(assertThrows(NullPointerException.class, () -> lock.tryAcquire(null, null)).getMessage().contains("wait"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> lock.tryAcquire(Duration.ZERO, Duration.ofMillis(1)))
                .getMessage().contains("lease"));
        assertTrue(assertThrows(NullPointerException.class, () -> lock.extend(null)).getMessage().contains("lease"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> lock.extend(Duration.ofSeconds(-1)))
                .getMessage().contains("lease"));
        try (LockHold hold = lock.tryAcquire(Duration.ZERO, null).orElseThrow()) {
            assertThrows(NullPointerException.class, () -> hold.extend(null));
            assertThrows(NullPointerException.class, () -> hold.onLost(null));
        }
    }

    @Test
    default void aHoldWhoseKeyIsDeletedIsToldWithinOneRenewal() throws Exception {
        assumeTrue(claims(Guarantee.LEASE_LOSS_SIGNAL), "the stage does not claim LEASE_LOSS_SIGNAL");
        Duration watchdog = Duration.ofSeconds(6);
        Locks client = open(LockOptions.defaults().withWatchdogTimeout(watchdog).withNodeTimeout(Duration.ofSeconds(1)));
        LockHold hold = client.get("deleted-hold").tryAcquire(Duration.ZERO, null).orElseThrow();
        CompletableFuture<LeaseLoss> heard = new CompletableFuture<>();
        hold.onLost(heard::complete);
        long deleted = System.nanoTime();
        assertTrue(open().get("deleted-hold").forceUnlock());
        LeaseLoss loss = heard.get(BOUNDED.toMillis(), TimeUnit.MILLISECONDS);
        long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - deleted);
        // A renewal runs every third of the watchdog timeout, and the next one finds the field gone, before the
        // lease would have run out. Which of the two told is the check, not the time: a busy 2-core machine has
        // held up both the watchdog's and the lease clock's threads for seconds, so a renewal may run late.
        assertTrue(loss.reason().contains("no longer had this owner's field"), "told " + tookMillis
                + " ms after the delete, not by a renewal but because: " + loss.reason());
        assertEquals("deleted-hold", loss.lockName());
        assertFalse(hold.isValid());
        CompletableFuture<LeaseLoss> late = new CompletableFuture<>();
        hold.onLost(late::complete);
        assertEquals(loss, late.getNow(null), "a listener added after the loss hears of it at once");
        assertInstanceOf(LeaseLostException.class, assertThrows(IllegalMonitorStateException.class, hold::close));
    }

    /**
     * An extend whose reply is lost may have set the new lease or not: the hold must trust the
     * shorter of the two at once, so it is never valid while Redis may no longer have it.
     */
    @Test
    default void anExtendWhoseReplyIsLostTrustsTheShorterLease() throws Exception {
        assumeTrue(security() == ServerSecurity.NONE, "plays alike on any transport: the plain run plays it");
        assumeTrue(canExtend(), "the stage cannot extend");
        try (ScenarioContext context = new ScenarioContext(stage(), fixture()); LockThread other = new LockThread("other")) {
            List<FaultyLink> links = context.links();
            LockOptions options = Stage.leaseOptions(Duration.ofSeconds(6)).withNodeTimeout(Duration.ofMillis(500));
            DistLock lock = context.actorBehind("A", links, options).locks().get("lost-extend");
            DistLock rival = context.actor("B", options).locks().get("lost-extend");
            LockHold shortened = lock.tryAcquire(Duration.ZERO, Duration.ofSeconds(6)).orElseThrow();
            // A first extend loads its script into the fresh server: the faulty one then runs, and only its reply is lost.
            shortened.extend(Duration.ofSeconds(6));
            links.forEach(FaultyLink::loseReplies);
            other.run(() -> assertThrows(LockException.class, () -> shortened.extend(Duration.ofMillis(800))));
            links.forEach(FaultyLink::heal);
            Await.until("the hold trusts the shorter lease", Duration.ofSeconds(2), () -> !shortened.isValid());
            // Whichever lease Redis kept (stage 6 may not have sent the extend at all), it ends, and the rival gets in.
            assertTrue(rival.tryLock(Duration.ofSeconds(8), null), "the hold outlived both its leases");
            assertFalse(shortened.isValid(), "the hold is valid while another client holds the lock");
            rival.unlock();
            assertThrows(IllegalMonitorStateException.class, shortened::close);
        }
    }

    /** A release whose reply is lost ends the hold, and frees the lock when Redis ran it. */
    @Test
    default void aReleaseWhoseReplyIsLostEndsTheHold() throws Exception {
        assumeTrue(security() == ServerSecurity.NONE, "plays alike on any transport: the plain run plays it");
        try (ScenarioContext context = new ScenarioContext(stage(), fixture()); LockThread other = new LockThread("other")) {
            List<FaultyLink> links = context.links();
            LockOptions options = Stage.leaseOptions(Duration.ofSeconds(6)).withNodeTimeout(Duration.ofMillis(500));
            DistLock lock = context.actorBehind("A", links, options).locks().get("lost-release");
            DistLock rival = context.actor("B", options).locks().get("lost-release");
            // A first release loads the unlock script into the fresh server: the faulty one then runs, and only its reply is lost.
            lock.tryAcquire(Duration.ZERO, Duration.ofSeconds(6)).orElseThrow().release();
            LockHold released = lock.tryAcquire(Duration.ZERO, Duration.ofSeconds(6)).orElseThrow();
            links.forEach(FaultyLink::loseReplies);
            other.run(() -> assertThrows(LockException.class, released::release));
            links.forEach(FaultyLink::heal);
            assertFalse(released.isValid(), "a release that failed left the hold valid");
            released.close();
            assertTrue(rival.tryLock(Duration.ofSeconds(2), null), "the release ran in Redis, yet the lock stayed taken");
            rival.unlock();
        }
    }
}
