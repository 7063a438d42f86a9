package dev.lockstep.testkit.contract;

import dev.lockstep.DistLock;
import dev.lockstep.Guarantee;
import dev.lockstep.Locks;
import dev.lockstep.internal.AbstractLocks;
import dev.lockstep.testkit.client.LockThread;
import dev.lockstep.testkit.client.Threads;
import dev.lockstep.testkit.fixture.Await;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Part of {@link LockContract}: one holder at a time, the lock adapters, leases, owners, re-entry and what the calls report. */
public interface BasicBehaviour extends StageUnderTest {

    @Test
    default void oneHolderAtATime() throws InterruptedException {
        DistLock a = open().get("basic");
        DistLock b = open().get("basic");
        assertTrue(a.tryLock(Duration.ZERO, null));
        assertTrue(a.isHeldByCurrentThread());
        assertFalse(b.tryLock(Duration.ofMillis(100), null), "a second client took a held lock");
        a.unlock();
        assertFalse(a.isHeldByCurrentThread());
        assertTrue(b.tryLock(Duration.ofSeconds(1), null), "a released lock stayed taken");
        b.unlock();
    }

    @Test
    default void theLockAdaptersWork() throws InterruptedException {
        DistLock lock = open().get("adapters");
        lock.lock();
        lock.unlock();
        lock.lockInterruptibly();
        lock.unlock();
        assertTrue(lock.tryLock());
        lock.unlock();
        assertTrue(lock.tryLock(1, TimeUnit.SECONDS));
        lock.unlock();
        lock.lock(Duration.ofSeconds(2));
        lock.unlock();
        assertThrows(UnsupportedOperationException.class, lock::newCondition);
    }

    @Test
    default void theLeaseFreesALockThatIsNeverUnlocked() throws InterruptedException {
        Locks client = open();
        // A free lock, asked with a wait: a loaded machine may slow a first round (five TLS handshakes) past the node timeout.
        assertTrue(client.get("abandoned").tryLock(BOUNDED, Duration.ofMillis(200)));
        assertTrue(open().get("abandoned").tryLock(Duration.ofSeconds(3), null),
                "a lock nobody unlocked never expired");
    }

    @Test
    default void unlockByANonHolder() throws Exception {
        Locks client = open();
        DistLock held = client.get("not-yours");
        assertTrue(held.tryLock(Duration.ZERO, null));
        DistLock intruder = open().get("not-yours");
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread other = Threads.factory("intruder").newThread(() -> {
            try {
                intruder.unlock();
            } catch (Throwable t) {
                thrown.set(t);
            }
        });
        other.start();
        other.join(BOUNDED.toMillis());
        boolean stillHeld = !open().get("not-yours").tryLock(Duration.ZERO, null);
        if (claims(Guarantee.OWNER_ONLY_RELEASE)) {
            assertTrue(thrown.get() instanceof IllegalMonitorStateException,
                    "a non-holder's unlock should throw IllegalMonitorStateException, threw " + thrown.get());
            assertTrue(stillHeld, "a non-holder's unlock released the lock");
        } else {
            // The stage cannot tell owners apart: the stranger's unlock deletes the lock. Its lesson.
            assertTrue(thrown.get() == null && !stillHeld, "expected the stranger's unlock to delete the lock");
        }
    }

    @Test
    default void reentrantHoldsAreCounted() throws InterruptedException {
        assumeTrue(claims(Guarantee.REENTRANT), "the stage does not claim REENTRANT");
        DistLock lock = open().get("counted");
        DistLock other = open().get("counted");
        assertTrue(lock.tryLock(Duration.ZERO, null));
        assertTrue(lock.tryLock(Duration.ZERO, null));
        lock.unlock();
        assertTrue(lock.isHeldByCurrentThread(), "the inner unlock released the outer hold");
        assertFalse(other.tryLock(Duration.ZERO, null));
        lock.unlock();
        assertFalse(lock.isHeldByCurrentThread());
        assertThrows(IllegalMonitorStateException.class, lock::unlock, "one unlock too many");
        assertTrue(other.tryLock(Duration.ZERO, null));
        other.unlock();
    }

    @Test
    default void theOperationalCallsReportTheHold() throws Exception {
        DistLock lock = open().get("reported");
        DistLock other = open().get("reported");
        Duration lease = Duration.ofSeconds(10);
        assertFalse(lock.isLocked(), "a lock nobody took");
        assertEquals(Duration.ZERO, lock.remainingLease());
        assertEquals(0, lock.holdCount());

        assertTrue(lock.tryLock(Duration.ZERO, lease));
        assertTrue(other.isLocked(), "any client sees the lock taken");
        Duration left = other.remainingLease();
        assertTrue(left.compareTo(Duration.ZERO) > 0 && left.compareTo(lease) <= 0, "remaining lease " + left);
        assertEquals(1, lock.holdCount());
        assertEquals(0, other.holdCount(), "another client holds nothing");
        if (claims(Guarantee.REENTRANT)) {
            assertTrue(lock.tryLock(Duration.ZERO, lease));
            assertEquals(2, lock.holdCount());
            lock.unlock();
            assertEquals(1, lock.holdCount());
        }
        try (LockThread elsewhere = new LockThread("another-thread")) {
            assertEquals(0, elsewhere.call(lock::holdCount), "another thread of the holding client holds nothing");
        }
        lock.unlock();
        assertFalse(other.isLocked(), "released");
        assertEquals(0, lock.holdCount());
    }

    /** Alone: it asks for a full collection every 10 ms, and each one stops every thread of the JVM. */
    @Test
    @PlaysAlone
    default void lockObjectsNobodyHoldsOrReferencesAreCollectedAndHeldOnesAreKept() throws Exception {
        AbstractLocks locks = (AbstractLocks) open();
        DistLock kept = locks.get("kept");
        kept.lock();
        int keptIdentity = System.identityHashCode(kept);
        kept = null;
        int names = 300;
        for (int i = 0; i < names; i++) {
            DistLock lock = locks.get("passing-" + i);
            lock.lock();
            lock.unlock();
        }
        Await.until("lock objects nobody holds or references are collected", BOUNDED, () -> {
            System.gc();
            return locks.lockObjects() < names / 2;
        });
        // Collected or not, a held lock's object is the one its holder gets back, knowing it holds it.
        DistLock again = locks.get("kept");
        assertEquals(keptIdentity, System.identityHashCode(again), "the held lock's object was dropped");
        assertTrue(again.isHeldByCurrentThread());
        again.unlock();
    }

    @Test
    default void forceUnlockFreesTheLockAndLetsAWaiterIn() throws Exception {
        Locks admin = open();
        DistLock holder = open().get("forced");
        DistLock waiter = open().get("forced");
        Duration longLease = Duration.ofSeconds(30);
        assertFalse(admin.get("forced").forceUnlock(), "nothing to force");
        assertTrue(holder.tryLock(Duration.ZERO, longLease));
        try (LockThread waiting = new LockThread("waiter")) {
            Future<Boolean> taken = waiting.submit(() -> waiter.tryLock(BOUNDED, longLease));
            Await.until("the waiter waits", BOUNDED, () -> waiting.thread().getState() == Thread.State.TIMED_WAITING);
            long forced = System.nanoTime();
            assertTrue(admin.get("forced").forceUnlock(), "a held lock was there to force");
            assertTrue(LockThread.get(taken, BOUNDED), "the waiter never got the forced lock");
            long micros = TimeUnit.NANOSECONDS.toMicros(System.nanoTime() - forced);
            System.out.printf("%s: a waiter took a forced lock %d µs after forceUnlock%n", stage(), micros);
            // Well before the holder's 30 s lease: the force freed it (and, with a release channel, woke the waiter).
            assertTrue(micros < BOUNDED.toNanos() / 1000, "took " + micros / 1000 + " ms");
            waiting.run(waiter::unlock);
        }
    }

    @Test
    default void anInterruptedWaiterGivesUpAndHoldsNothing() throws Exception {
        DistLock holder = open().get("interrupted");
        DistLock waiter = open().get("interrupted");
        assertTrue(holder.tryLock(Duration.ZERO, null));
        CountDownLatch waiting = new CountDownLatch(1);
        AtomicReference<Throwable> outcome = new AtomicReference<>();
        AtomicReference<Boolean> heldAfter = new AtomicReference<>();
        Thread thread = Threads.factory("interrupted-waiter").newThread(() -> {
            waiting.countDown();
            try {
                waiter.lockInterruptibly();
            } catch (Throwable t) {
                outcome.set(t);
            }
            heldAfter.set(waiter.isHeldByCurrentThread());
        });
        thread.start();
        assertTrue(waiting.await(BOUNDED.toSeconds(), TimeUnit.SECONDS));
        thread.interrupt();
        thread.join(BOUNDED.toMillis());
        assertFalse(thread.isAlive(), "the waiter ignored its interrupt");
        assertTrue(outcome.get() instanceof InterruptedException, "expected InterruptedException, got " + outcome.get());
        assertFalse(heldAfter.get(), "an interrupted waiter ended up holding the lock");
        holder.unlock();
    }
}
