package dev.lockstep.shedlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockstep.DistLock;
import dev.lockstep.LockOptions;
import dev.lockstep.Locks;
import dev.lockstep.testkit.fixture.Await;
import dev.lockstep.testkit.fixture.SingleNodeTest;
import dev.lockstep.v4.WatchdogLocks;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import net.javacrumbs.shedlock.core.DefaultLockingTaskExecutor;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockExtender;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/** The provider on real Redis: one node at a time, lockAtLeastFor after an early unlock, extension, bad input. */
@Execution(ExecutionMode.CONCURRENT)
class LockstepLockProviderTest extends SingleNodeTest {

    /** How late a Redis key's expiry may be seen, on a busy machine, after its lease ran out. */
    private static final Duration LEASE_EXPIRY_SLACK = Duration.ofSeconds(1);

    private Locks newLocks() {
        return closedAfter(new WatchdogLocks(closedAfter(node.newClient()), LockOptions.defaults()));
    }

    private static LockConfiguration config(String job, Duration atMost, Duration atLeast) {
        return new LockConfiguration(Instant.now(), job, atMost, atLeast);
    }

    private static String job(TestInfo test) {
        return test.getTestMethod().orElseThrow().getName();
    }

    @Test
    void oneNodeHoldsAJobsLockAndAnUnlockPastLockAtLeastForFreesItAtOnce(TestInfo test) {
        LockstepLockProvider a = new LockstepLockProvider(newLocks());
        LockstepLockProvider b = new LockstepLockProvider(newLocks());
        LockConfiguration config = config(job(test), Duration.ofSeconds(10), Duration.ZERO);

        SimpleLock held = a.lock(config).orElseThrow();
        assertTrue(b.lock(config).isEmpty(), "a second node must not take a held job lock");
        assertTrue(a.lock(config).isEmpty(), "nor the same node again: each run is an owner of its own");

        held.unlock();
        assertFalse(newLocks().get(a.lockName(job(test))).isLocked(), "the key is gone when unlock returns");
        b.lock(config).orElseThrow().unlock();
        assertThrows(IllegalStateException.class, held::unlock, "ShedLock's locks are good for one unlock");
    }

    @Test
    void anUnlockFromAnotherThreadKeepsTheLockUntilLockAtLeastFor(TestInfo test) throws Exception {
        LockstepLockProvider provider = new LockstepLockProvider(newLocks());
        DistLock observed = newLocks().get(provider.lockName(job(test)));
        LockConfiguration config = config(job(test), Duration.ofSeconds(10), Duration.ofMillis(1500));
        AtomicReference<SimpleLock> held = new AtomicReference<>(provider.lock(config).orElseThrow());

        CompletableFuture.runAsync(() -> held.getAndSet(null).unlock()).get();
        // Nothing of the run is referenced now: a collection must not let the hold's cleaner free the lock early.
        System.gc();

        Instant until = config.getLockAtLeastUntil();
        List<Instant> freeTooEarly = new ArrayList<>();
        Await.until("lock free after lockAtLeastFor", Duration.ofSeconds(5), () -> {
            Instant now = Instant.now();
            boolean locked = observed.isLocked();
            if (!locked && now.isBefore(until)) {
                freeTooEarly.add(now);
            }
            return !locked;
        });
        Instant freed = Instant.now();
        assertEquals(List.of(), freeTooEarly, "free before lockAtLeastUntil " + until);
        // Freed by the planned release, or, when a busy machine delays it, by the lease it outlives by the
        // margin: either way long before lockAtMostFor (10 s) would have ended it.
        Instant latest = until.plus(HeldLock.RELEASE_MARGIN).plus(LEASE_EXPIRY_SLACK);
        assertTrue(freed.isBefore(latest), "freed at " + freed + ", after " + latest);
        assertTrue(new LockstepLockProvider(newLocks()).lock(config(job(test), Duration.ofSeconds(1), Duration.ZERO))
                .isPresent(), "another node takes it once it is free");
    }

    @Test
    void extendSetsANewLeaseAndRetiresTheOldLock(TestInfo test) {
        LockstepLockProvider provider = new LockstepLockProvider(newLocks());
        DistLock observed = newLocks().get(provider.lockName(job(test)));
        SimpleLock first = provider.lock(config(job(test), Duration.ofMillis(500), Duration.ZERO)).orElseThrow();

        SimpleLock second = first.extend(Duration.ofSeconds(20), Duration.ZERO).orElseThrow();
        assertTrue(observed.remainingLease().compareTo(Duration.ofSeconds(15)) > 0,
                "remaining lease after extend: " + observed.remainingLease());
        assertThrows(IllegalStateException.class, first::unlock, "the extended lock is retired");

        second.unlock();
        assertFalse(observed.isLocked());
        assertThrows(IllegalStateException.class, () -> second.extend(Duration.ofSeconds(1), Duration.ZERO),
                "an unlocked lock cannot be extended");
    }

    @Test
    void extendingALockRedisNoLongerHasGivesEmpty(TestInfo test) {
        LockstepLockProvider provider = new LockstepLockProvider(newLocks());
        SimpleLock held = provider.lock(config(job(test), Duration.ofSeconds(10), Duration.ZERO)).orElseThrow();
        assertTrue(newLocks().get(provider.lockName(job(test))).forceUnlock());

        assertEquals(Optional.empty(), held.extend(Duration.ofSeconds(10), Duration.ZERO));
    }

    @Test
    void lockAtMostForFreesTheLockOfANodeThatNeverUnlocks(TestInfo test) {
        LockstepLockProvider crashed = new LockstepLockProvider(newLocks());
        LockstepLockProvider other = new LockstepLockProvider(newLocks());
        LockConfiguration config = config(job(test), Duration.ofMillis(300), Duration.ZERO);
        SimpleLock neverUnlocked = crashed.lock(config).orElseThrow();

        long start = System.nanoTime();
        Await.until("another node takes the lock", Duration.ofSeconds(3), () -> other.lock(config).isPresent());
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        assertTrue(took.compareTo(Duration.ofMillis(250)) > 0, "taken after only " + took);
        // As ShedLock's Redis providers: the late unlock neither throws nor frees the other node's lock.
        neverUnlocked.unlock();
        assertTrue(newLocks().get(crashed.lockName(job(test))).isLocked(), "a late unlock freed another node's lock");
    }

    @Test
    void theJobsOwnExceptionSurvivesAnUnlockThatFindsItsLockGone(TestInfo test) {
        LockstepLockProvider provider = new LockstepLockProvider(newLocks());
        LockstepLockProvider other = new LockstepLockProvider(newLocks());
        LockConfiguration config = config(job(test), Duration.ofMillis(300), Duration.ZERO);
        IllegalStateException jobFailed = new IllegalStateException("the job's own failure");
        IllegalStateException thrown = assertThrows(IllegalStateException.class,
                () -> new DefaultLockingTaskExecutor(provider).executeWithLock((Runnable) () -> {
                    Await.until("another node takes the lock once lockAtMostFor ran out", Duration.ofSeconds(3),
                            () -> other.lock(config).isPresent());
                    throw jobFailed;
                }, config));
        assertSame(jobFailed, thrown, "the executor's unlock replaced the job's exception");
    }

    @Test
    void aLockAtMostForUnderTenMillisecondsHoldsForTenMilliseconds(TestInfo test) {
        LockstepLockProvider provider = new LockstepLockProvider(newLocks());
        for (Duration atMost : List.of(Duration.ZERO, Duration.ofMillis(5))) {
            String job = job(test) + "-" + atMost.toMillis();
            assertTrue(provider.lock(config(job, atMost, Duration.ZERO)).isPresent(), "lockAtMostFor " + atMost + " refused");
            Await.until("the lock of " + atMost + " runs out", Duration.ofSeconds(2),
                    () -> newLocks().get(provider.lockName(job)).tryLock());
        }
    }

    @Test
    void theActiveLockExtendsFromInsideAJobRunByShedLocksExecutor(TestInfo test) {
        LockstepLockProvider provider = new LockstepLockProvider(newLocks());
        DistLock observed = newLocks().get(provider.lockName(job(test)));
        AtomicReference<Duration> leaseInside = new AtomicReference<>();

        new DefaultLockingTaskExecutor(provider).executeWithLock((Runnable) () -> {
            LockExtender.extendActiveLock(Duration.ofSeconds(30), Duration.ZERO);
            leaseInside.set(observed.remainingLease());
        }, config(job(test), Duration.ofSeconds(2), Duration.ZERO));

        assertTrue(leaseInside.get().compareTo(Duration.ofSeconds(20)) > 0, "lease inside the job: " + leaseInside);
        assertFalse(observed.isLocked(), "the executor unlocked the extended lock");
    }

    @Test
    void badInputNamesTheArgument() {
        Locks locks = newLocks();
        assertTrue(assertThrows(NullPointerException.class, () -> new LockstepLockProvider(null))
                .getMessage().contains("locks"));
        assertTrue(assertThrows(NullPointerException.class, () -> new LockstepLockProvider(locks, null))
                .getMessage().contains("keyPrefix"));
        LockstepLockProvider provider = new LockstepLockProvider(locks);
        assertTrue(assertThrows(NullPointerException.class, () -> provider.lock(null))
                .getMessage().contains("lockConfiguration"));
    }
}
