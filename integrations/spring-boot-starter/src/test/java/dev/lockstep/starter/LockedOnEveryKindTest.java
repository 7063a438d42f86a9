package dev.lockstep.starter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockstep.Locks;
import dev.lockstep.testkit.fixture.SingleNodeTest;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.boot.test.util.TestPropertyValues;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;

/** {@link Locked} on each kind the starter builds: the thread-free hold excludes, and its close releases. */
@Execution(ExecutionMode.CONCURRENT)
class LockedOnEveryKindTest extends SingleNodeTest {

    /** Each call on a thread of its own: the common pool may have one worker, which a blocked call would keep. */
    private static final Executor ON_ITS_OWN_THREAD = call -> new Thread(call, "caller").start();

    private static final Duration DEADLINE = Duration.ofSeconds(20);

    @ParameterizedTest(name = "{0}")
    @EnumSource(LockKind.class)
    void aHeldKeyRefusesTheNextCallUntilTheFirstReturns(LockKind kind) throws Exception {
        try (AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext()) {
            TestPropertyValues.of("lockstep.redis.host=" + node.address().getHost(),
                    "lockstep.redis.port=" + node.address().getPort(), "lockstep.kind=" + kind.id(),
                    "shelf.patience=1s").applyTo(context);
            context.register(LockstepAutoConfiguration.class);
            context.registerBean(Shelf.class, () -> new Shelf(new Shelf.Counts()));
            context.refresh();
            Shelf shelf = context.getBean(Shelf.class);
            String sku = "every-" + kind.id();
            CountDownLatch inside = new CountDownLatch(1);
            CountDownLatch leave = new CountDownLatch(1);
            CompletableFuture<Void> holding = CompletableFuture.runAsync(() -> shelf.hold(sku, inside, leave), ON_ITS_OWN_THREAD);
            try {
                assertTrue(inside.await(DEADLINE.toMillis(), TimeUnit.MILLISECONDS), "the first call is inside");
                assertTrue(context.getBean(Locks.class).get("shelf:" + sku).isLocked(), "Redis has the hold");
                assertThrows(LockNotTakenException.class, () -> shelf.takeAtOnce(sku), "a second call on the key");
            } finally {
                leave.countDown();
            }
            holding.get(DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
            assertFalse(context.getBean(Locks.class).get("shelf:" + sku).isLocked(), "released when the call returned");
            assertEquals("took " + sku, shelf.takeAtOnce(sku));
        }
    }
}
