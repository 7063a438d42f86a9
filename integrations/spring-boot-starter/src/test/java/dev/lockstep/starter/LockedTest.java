package dev.lockstep.starter;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.lockstep.Locks;
import dev.lockstep.testkit.fixture.SingleNodeTest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.util.TestPropertyValues;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * {@link Locked} methods on real Redis, in two application contexts at once (two services sharing
 * one Redis): one key excludes, two keys do not, an exception releases, a timeout throws. The
 * tests run side by side, each on its own keys and contexts.
 */
@Execution(ExecutionMode.CONCURRENT)
class LockedTest extends SingleNodeTest {

    private static final Duration DEADLINE = Duration.ofSeconds(20);

    private ConfigurableApplicationContext first;
    private ConfigurableApplicationContext second;
    private final Shelf.Counts counts = new Shelf.Counts();

    @BeforeEach
    void startTwoServices() {
        first = start();
        second = start();
    }

    @AfterEach
    void stopThem() {
        first.close();
        second.close();
    }

    /** A service of its own on the class's Redis: the auto-configuration and a {@link Shelf}, open until the test ends. */
    private ConfigurableApplicationContext start() {
        AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext();
        TestPropertyValues.of("lockstep.redis.host=" + node.address().getHost(),
                "lockstep.redis.port=" + node.address().getPort(), "lockstep.key-prefix=shop:",
                "shelf.patience=150ms").applyTo(context);
        context.register(LockstepAutoConfiguration.class);
        context.registerBean(Shelf.class, () -> new Shelf(counts));
        context.refresh();
        return context;
    }

    private Shelf shelf(ConfigurableApplicationContext context) {
        return context.getBean(Shelf.class);
    }

    @Test
    void oneKeyIsHeldByOneCallAtATimeAcrossBothServices() throws Exception {
        int threadsPerService = 8;
        int calls = 2000;
        ExecutorService threads = Executors.newFixedThreadPool(2 * threadsPerService);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int i = 0; i < calls; i++) {
                Shelf shelf = shelf(i % 2 == 0 ? first : second);
                done.add(threads.submit(() -> shelf.sell("sku-1")));
            }
            for (Future<?> call : done) {
                call.get(DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
            }
        } finally {
            threads.shutdownNow();
        }
        assertAll(
                () -> assertEquals(calls, counts.section.counter(), "every call ran, and none lost an update"),
                () -> assertEquals(0, counts.section.overlaps(), "calls on one key that were inside at once"));
    }

    @Test
    void twoKeysAreHeldAtOnce() throws Exception {
        CountDownLatch bothInside = new CountDownLatch(2);
        CountDownLatch leave = new CountDownLatch(1);
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            Future<?> a = threads.submit(() -> shelf(first).hold("sku-a", bothInside, leave));
            Future<?> b = threads.submit(() -> shelf(second).hold("sku-b", bothInside, leave));
            assertTrue(bothInside.await(DEADLINE.toMillis(), TimeUnit.MILLISECONDS), "both keys' calls inside at once");
            assertTrue(first.getBean(Locks.class).get("shop:shelf:sku-a").isLocked(), "the key's lock is prefix + name + key");
            leave.countDown();
            a.get(DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
            b.get(DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
        } finally {
            leave.countDown();
            threads.shutdownNow();
        }
        assertFalse(first.getBean(Locks.class).get("shop:shelf:sku-a").isLocked(), "released on return");
    }

    @Test
    void anExceptionReleasesTheLockAtOnce() {
        IllegalStateException thrown = assertThrows(IllegalStateException.class, () -> shelf(first).fail("sku-x"));
        assertEquals("refused sku-x", thrown.getMessage());
        // One attempt, no wait: the other service finds the lock free the moment the call has thrown.
        assertEquals("took sku-x", shelf(second).takeAtOnce("sku-x"));
    }

    @Test
    void aLockNotTakenInTimeThrowsTheConfiguredException() throws Exception {
        CountDownLatch inside = new CountDownLatch(1);
        CountDownLatch leave = new CountDownLatch(1);
        ExecutorService holder = Executors.newSingleThreadExecutor();
        try {
            Future<?> held = holder.submit(() -> shelf(first).hold("sku-busy", inside, leave));
            assertTrue(inside.await(DEADLINE.toMillis(), TimeUnit.MILLISECONDS));
            Shelf.SoldOut soldOut = assertThrows(Shelf.SoldOut.class, () -> shelf(second).impatient("sku-busy"));
            assertEquals("lock 'shop:shelf:sku-busy' was not taken within 150 ms", soldOut.getMessage());
            LockNotTakenException notTaken = assertThrows(LockNotTakenException.class,
                    () -> shelf(second).takeAtOnce("sku-busy"));
            assertAll(
                    () -> assertEquals("shop:shelf:sku-busy", notTaken.lockName()),
                    () -> assertEquals(Duration.ZERO, notTaken.waited()),
                    () -> assertEquals(0, counts.impatientRan.get(), "a method whose lock was not taken does not run"));
            leave.countDown();
            held.get(DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
        } finally {
            leave.countDown();
            holder.shutdownNow();
        }
    }

    @Test
    void aKeyThatIsNullIsRefusedAtTheCallByName() {
        IllegalArgumentException nullKey = assertThrows(IllegalArgumentException.class, () -> shelf(first).sell(null));
        assertEquals("@Locked on Shelf.sell: key '#sku' was null for this call", nullKey.getMessage());
    }

    @Test
    void aWaitThatIsNoDurationStopsTheStart() {
        new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(LockstepAutoConfiguration.class))
                .withPropertyValues("lockstep.redis.port=" + node.address().getPort())
                .withBean(Shelf.Impatient.class)
                .run(context -> StartupFailure.assertSays(context,
                        "@Locked on Impatient.badWait: waitFor must be a duration such as 2s or 500ms, was 'soon'"));
    }

    @Test
    void aLeaseEveryLockRefusesStopsTheStart() {
        new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(LockstepAutoConfiguration.class))
                .withPropertyValues("lockstep.redis.port=" + node.address().getPort())
                .withBean(Shelf.Hasty.class)
                .run(context -> StartupFailure.assertSays(context,
                        "@Locked on Hasty.badLease: lease must be between PT0.01S and PT8760H, was PT0.005S ('5ms')"));
    }

    @Test
    void callsOnVirtualThreadsHoldTheLockOneAtATime() throws Exception {
        assumeTrue(Runtime.version().feature() >= 21, "virtual threads need JDK 21; this is " + Runtime.version());
        // Looked up by name: the module compiles for Java 17, where the method does not exist.
        ExecutorService virtual = (ExecutorService) Executors.class.getMethod("newVirtualThreadPerTaskExecutor").invoke(null);
        // A virtual thread per call, all waiting at once: each release hands the lock to one of them.
        int calls = 400;
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int i = 0; i < calls; i++) {
                Shelf shelf = shelf(i % 2 == 0 ? first : second);
                done.add(virtual.submit(() -> shelf.sell("sku-virtual")));
            }
            for (Future<?> call : done) {
                call.get(DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
            }
        } finally {
            virtual.shutdownNow();
        }
        assertEquals(calls, counts.section.counter());
        assertEquals(0, counts.section.overlaps());
    }
}
