package dev.lockstep.integration;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockstep.DistLock;
import dev.lockstep.LeaseLostException;
import dev.lockstep.LockOptions;
import dev.lockstep.Locks;
import dev.lockstep.testkit.client.CriticalSection;
import dev.lockstep.testkit.fixture.Await;
import dev.lockstep.testkit.fixture.SingleNodeTest;
import dev.lockstep.v5.PubSubLocks;
import java.time.Duration;
import java.util.ConcurrentModificationException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.springframework.integration.support.locks.DistributedLock;

/** The registry on real Redis: executeLocked across clients, renewLock, ttl locks, expiry of unused locks, bad input. */
@Execution(ExecutionMode.CONCURRENT)
class LockstepLockRegistryTest extends SingleNodeTest {

    private Locks newLocks() {
        return closedAfter(new PubSubLocks(closedAfter(node.newClient()), LockOptions.defaults()));
    }

    private static String key(TestInfo test) {
        return test.getTestMethod().orElseThrow().getName();
    }

    @Test
    void executeLockedExcludesAcrossRegistries(TestInfo test) throws Exception {
        List<LockstepLockRegistry> registries = List.of(new LockstepLockRegistry(newLocks()),
                new LockstepLockRegistry(newLocks()));
        CriticalSection section = new CriticalSection();
        int threads = 8;
        int callsEach = 40;
        CriticalSection.contend(threads, callsEach,
                contender -> registries.get(contender % 2).executeLocked(key(test), section::pass));
        assertEquals(0, section.overlaps(), "callers inside at once");
        assertEquals(threads * callsEach, section.counter(), "lost updates");
    }

    @Test
    void executeLockedWithAWaitTimesOutWhileAnotherClientHoldsTheLock(TestInfo test) {
        LockstepLockRegistry holder = new LockstepLockRegistry(newLocks());
        LockstepLockRegistry waiter = new LockstepLockRegistry(newLocks());
        holder.obtain(key(test)).lock();
        AtomicInteger ran = new AtomicInteger();

        long start = System.nanoTime();
        assertThrows(TimeoutException.class,
                () -> waiter.executeLocked(key(test), Duration.ofMillis(300), ran::incrementAndGet));
        assertTrue(Duration.ofNanos(System.nanoTime() - start).toMillis() >= 250, "gave up before its wait");
        assertEquals(0, ran.get());

        holder.obtain(key(test)).unlock();
        assertDoesNotThrow(() -> waiter.executeLocked(key(test), Duration.ofMillis(300), ran::incrementAndGet));
        assertEquals(1, ran.get());
    }

    @Test
    void renewLockSetsTheHoldersRemainingLease(TestInfo test) throws Exception {
        LockstepLockRegistry registry = new LockstepLockRegistry(newLocks());
        DistLock observed = newLocks().get(LockstepLockRegistry.DEFAULT_KEY_PREFIX + key(test));
        DistributedLock lock = registry.obtain(key(test));
        lock.lock(Duration.ofSeconds(5));
        assertTrue(observed.remainingLease().compareTo(Duration.ofSeconds(5)) <= 0, "ttl lock: " + observed.remainingLease());

        registry.renewLock(key(test), Duration.ofSeconds(30));
        Duration renewed = observed.remainingLease();
        assertTrue(renewed.compareTo(Duration.ofSeconds(25)) > 0 && renewed.compareTo(Duration.ofSeconds(30)) <= 0,
                "after renewLock(30 s): " + renewed);
        registry.renewLock(key(test));
        assertTrue(observed.remainingLease().compareTo(Duration.ofSeconds(55)) > 0,
                "after renewLock(): " + observed.remainingLease());

        ExecutionException notHolder = assertThrows(ExecutionException.class,
                () -> CompletableFuture.runAsync(() -> registry.renewLock(key(test), Duration.ofSeconds(1))).get());
        assertTrue(notHolder.getCause() instanceof IllegalMonitorStateException, "got " + notHolder.getCause());
        lock.unlock();
        assertEquals(Duration.ZERO, observed.remainingLease());
    }

    @Test
    void aTtlLockIsNotRenewedAndItsLateUnlockSaysAnotherProcessMayHaveHadIt(TestInfo test) throws Exception {
        LockstepLockRegistry holder = new LockstepLockRegistry(newLocks());
        LockstepLockRegistry other = new LockstepLockRegistry(newLocks());
        DistributedLock lock = holder.obtain(key(test));
        // Redis starts the ttl after the call starts, however late the call returns on a busy machine.
        long start = System.nanoTime();
        assertTrue(lock.tryLock(Duration.ZERO, Duration.ofMillis(300)));

        Await.until("another registry takes the lock once its ttl ran out", Duration.ofSeconds(3),
                () -> other.obtain(key(test)).tryLock());
        long held = Duration.ofNanos(System.nanoTime() - start).toMillis();
        // Redis's expiry and our clock may round a millisecond apart.
        assertTrue(held >= 298, "ttl cut short: the lock was free after " + held + " ms");
        // As Spring's own registries (Redis and JDBC) say it, with Lockstep's account of the loss as the cause.
        ConcurrentModificationException late = assertThrows(ConcurrentModificationException.class, lock::unlock);
        assertInstanceOf(LeaseLostException.class, late.getCause());
        assertThrows(IllegalMonitorStateException.class, lock::unlock, "an unlock by a thread that holds nothing");
        other.obtain(key(test)).unlock();
    }

    @Test
    void aTtlUnderTenMillisecondsHoldsForTenMilliseconds(TestInfo test) throws Exception {
        LockstepLockRegistry registry = new LockstepLockRegistry(newLocks());
        DistributedLock lock = registry.obtain(key(test));
        assertTrue(lock.tryLock(Duration.ZERO, Duration.ofMillis(1)), "a 1 ms ttl refused");
        Await.until("the 1 ms lock runs out", Duration.ofSeconds(2),
                () -> new LockstepLockRegistry(newLocks()).obtain(key(test)).tryLock());
        DistributedLock renewed = registry.obtain(key(test) + "-renewed");
        renewed.lock();
        registry.renewLock(key(test) + "-renewed", Duration.ofMillis(1));
        Await.until("the lock renewed for 1 ms runs out", Duration.ofSeconds(2),
                () -> new LockstepLockRegistry(newLocks()).obtain(key(test) + "-renewed").tryLock());
    }

    @Test
    void expiryDropsOnlyUnusedLocksNobodyHolds(TestInfo test) {
        LockstepLockRegistry registry = new LockstepLockRegistry(newLocks());
        DistributedLock held = registry.obtain(key(test) + "-held");
        DistributedLock idle = registry.obtain(key(test) + "-idle");
        held.lock();
        assertSame(idle, registry.obtain(key(test) + "-idle"), "cached until expired");

        registry.expireUnusedOlderThan(0);
        assertEquals(1, registry.cachedLocks());
        assertSame(held, registry.obtain(key(test) + "-held"), "a held lock stays");
        assertNotSame(idle, registry.obtain(key(test) + "-idle"), "an unused one was dropped");

        held.unlock();
        registry.expireUnusedOlderThan(0);
        assertEquals(0, registry.cachedLocks());
        registry.obtain(key(test) + "-idle");
        registry.expireUnusedOlderThan(Duration.ofMinutes(1).toMillis());
        assertEquals(1, registry.cachedLocks(), "used within the last minute");
    }

    @Test
    void badInputNamesTheArgument() {
        Locks locks = newLocks();
        LockstepLockRegistry registry = new LockstepLockRegistry(locks);
        assertMessage(NullPointerException.class, "locks", () -> new LockstepLockRegistry(null));
        assertMessage(NullPointerException.class, "keyPrefix", () -> new LockstepLockRegistry(locks, null, Duration.ofSeconds(1)));
        assertMessage(IllegalArgumentException.class, "renewal", () -> new LockstepLockRegistry(locks, "", Duration.ZERO));
        assertMessage(NullPointerException.class, "lockKey", () -> registry.obtain(null));
        assertMessage(IllegalArgumentException.class, "lockKey", () -> registry.obtain(42));
        assertMessage(IllegalArgumentException.class, "lockKey", () -> registry.obtain(" "));
        assertMessage(NullPointerException.class, "ttl", () -> registry.renewLock("k", null));
    }

    private static void assertMessage(Class<? extends RuntimeException> type, String argument,
                                      Executable call) {
        String message = assertThrows(type, call).getMessage();
        assertTrue(message.contains(argument), "message should name " + argument + ": " + message);
    }
}
