package dev.lockstep.lock4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.baomidou.lock.LockInfo;
import com.baomidou.lock.LockTemplate;
import com.baomidou.lock.spring.boot.autoconfigure.Lock4jProperties;
import dev.lockstep.DistLock;
import dev.lockstep.LockOptions;
import dev.lockstep.Locks;
import dev.lockstep.testkit.client.CriticalSection;
import dev.lockstep.testkit.fixture.SingleNodeTest;
import dev.lockstep.v5.PubSubLocks;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/** The executor behind lock4j's own LockTemplate, on real Redis: exclusion, time-outs, release from another thread. */
@Execution(ExecutionMode.CONCURRENT)
class LockstepLockExecutorTest extends SingleNodeTest {

    private Locks newLocks() {
        return closedAfter(new PubSubLocks(closedAfter(node.newClient()), LockOptions.defaults()));
    }

    /** A LockTemplate wired by hand as lock4j's auto-configuration would, with its default properties. */
    private LockTemplate template(Locks locks) throws Exception {
        LockTemplate template = new LockTemplate();
        template.setProperties(new Lock4jProperties());
        template.setExecutors(List.of(new LockstepLockExecutor(locks)));
        template.afterPropertiesSet();
        return template;
    }

    private static String key(TestInfo test) {
        return "lock4j:" + test.getTestMethod().orElseThrow().getName();
    }

    @Test
    void twoClientsExcludeEachOther(TestInfo test) throws Exception {
        List<LockTemplate> templates = List.of(template(newLocks()), template(newLocks()));
        CriticalSection section = new CriticalSection();
        AtomicInteger failures = new AtomicInteger();
        int threads = 8;
        int callsEach = 40;
        CriticalSection.contend(threads, callsEach, contender -> {
            LockTemplate template = templates.get(contender % 2);
            LockInfo info = template.lock(key(test), 10_000, 20_000, LockstepLockExecutor.class);
            if (info == null) {
                failures.incrementAndGet();
                return;
            }
            section.pass();
            if (!template.releaseLock(info)) {
                failures.incrementAndGet();
            }
        });
        assertEquals(0, failures.get(), "locks not taken or not released");
        assertEquals(0, section.overlaps(), "callers inside at once");
        assertEquals(threads * callsEach, section.counter(), "lost updates");
    }

    @Test
    void aLockHeldElsewhereTimesOut(TestInfo test) throws Exception {
        LockTemplate holder = template(newLocks());
        LockTemplate waiter = template(newLocks());
        LockInfo held = holder.lock(key(test), 10_000, 1_000, LockstepLockExecutor.class);
        assertNotNull(held);

        long start = System.nanoTime();
        assertNull(waiter.lock(key(test), 10_000, 300, LockstepLockExecutor.class));
        long waitedMillis = Duration.ofNanos(System.nanoTime() - start).toMillis();
        assertTrue(waitedMillis >= 250, "gave up after " + waitedMillis + " ms of a 300 ms timeout");

        assertTrue(holder.releaseLock(held));
        LockInfo taken = waiter.lock(key(test), 10_000, 300, LockstepLockExecutor.class);
        assertNotNull(taken, "free once released");
        assertTrue(waiter.releaseLock(taken));
    }

    @Test
    void anotherThreadReleasesTheLockOnce(TestInfo test) throws Exception {
        LockTemplate template = template(newLocks());
        LockTemplate other = template(newLocks());
        LockInfo info = template.lock(key(test), 10_000, 1_000, LockstepLockExecutor.class);

        assertTrue(CompletableFuture.supplyAsync(() -> template.releaseLock(info)).get(), "released from another thread");
        assertFalse(template.releaseLock(info), "a second release has nothing to release");
        LockInfo next = other.lock(key(test), 10_000, 100, LockstepLockExecutor.class);
        assertNotNull(next, "free at once for another client");
        assertTrue(other.releaseLock(next));
    }

    @Test
    void expireMapsToTheLeaseAndMinusOneToTheWatchdog(TestInfo test) throws Exception {
        LockTemplate template = template(newLocks());
        DistLock observed = newLocks().get(key(test));

        LockInfo fixed = template.lock(key(test), 2_000, 1_000, LockstepLockExecutor.class);
        Duration fixedLease = observed.remainingLease();
        assertTrue(fixedLease.compareTo(Duration.ZERO) > 0 && fixedLease.compareTo(Duration.ofSeconds(2)) <= 0,
                "expire 2000: " + fixedLease);
        assertTrue(template.releaseLock(fixed));

        LockInfo renewed = template.lock(key(test), -1, 1_000, LockstepLockExecutor.class);
        assertTrue(observed.remainingLease().compareTo(Duration.ofSeconds(25)) > 0,
                "expire -1 takes the watchdog's 30 s lease: " + observed.remainingLease());
        assertTrue(newLocks().get(key(test)).forceUnlock());
        assertFalse(template.releaseLock(renewed), "a lock Redis no longer has is not released");
    }

    @Test
    void badInputNamesTheArgument() {
        assertTrue(assertThrows(NullPointerException.class, () -> new LockstepLockExecutor(null))
                .getMessage().contains("locks"));
        LockstepLockExecutor executor = new LockstepLockExecutor(newLocks());
        assertThrows(IllegalArgumentException.class, () -> executor.acquire(" ", "v", 1_000, 0));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> executor.acquire("k", "v", 5, 0))
                .getMessage().contains("lease"));
        assertFalse(executor.releaseLock("k", "v", null));
    }
}
