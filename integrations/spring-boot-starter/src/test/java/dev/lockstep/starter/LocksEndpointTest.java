package dev.lockstep.starter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockstep.CompositeLocks;
import dev.lockstep.DistLock;
import dev.lockstep.Locks;
import dev.lockstep.ReadWriteDistLock;
import dev.lockstep.testkit.fixture.SingleNodeTest;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.endpoint.jmx.JmxEndpointAutoConfiguration;
import org.springframework.boot.actuate.endpoint.OperationType;
import org.springframework.boot.actuate.endpoint.jmx.JmxEndpointsSupplier;
import org.springframework.boot.autoconfigure.jmx.JmxAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.util.TestPropertyValues;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;

/**
 * The Actuator endpoint {@code locks} on each kind the starter builds, against live locks: a
 * {@link Locked} call's hold and a thread's own lock are listed while held, and gone once released.
 */
@Execution(ExecutionMode.CONCURRENT)
class LocksEndpointTest extends SingleNodeTest {

    private static final Duration DEADLINE = Duration.ofSeconds(20);

    @ParameterizedTest(name = "{0}")
    @EnumSource(LockKind.class)
    void listsEveryHoldOfThisInstanceWhileItLasts(LockKind kind) throws Exception {
        try (AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext()) {
            TestPropertyValues.of("lockstep.redis.host=" + node.address().getHost(),
                    "lockstep.redis.port=" + node.address().getPort(), "lockstep.kind=" + kind.id(),
                    "shelf.patience=1s", "management.endpoints.web.exposure.include=locks").applyTo(context);
            context.register(LockstepAutoConfiguration.class);
            context.registerBean(Shelf.class, () -> new Shelf(new Shelf.Counts()));
            context.refresh();
            LocksEndpoint endpoint = context.getBean(LocksEndpoint.class);
            Locks locks = context.getBean(Locks.class);
            assertThat(endpoint.locks().locks()).as("nothing held yet").isEmpty();

            Instant before = Instant.now();
            String sku = "endpoint-" + kind.id();
            CountDownLatch inside = new CountDownLatch(1);
            CountDownLatch leave = new CountDownLatch(1);
            CompletableFuture<Void> holding = CompletableFuture.runAsync(
                    () -> context.getBean(Shelf.class).hold(sku, inside, leave));
            DistLock byHand = byHand(locks, kind, "by-hand-" + kind.id());
            try {
                assertTrue(inside.await(DEADLINE.toMillis(), TimeUnit.MILLISECONDS), "the @Locked call is inside");
                byHand.lock();
                try {
                    LocksEndpoint.HeldLocks view = endpoint.locks();
                    Instant after = Instant.now();
                    assertThat(view.clientId()).isEqualTo(locks.clientId());
                    assertThat(view.kind()).isEqualTo(kind.id());
                    assertThat(view.locks()).hasSize(2).allSatisfy(line -> {
                        assertThat(line.heldSince()).isBetween(before, after);
                        assertThat(line.leaseLeftMillis()).as(line.name()).isPositive().isLessThanOrEqualTo(30_000);
                        assertThat(line.holds()).isEqualTo(1);
                    });
                    assertThat(view.locks()).filteredOn(line -> line.name().equals("shelf:" + sku)).singleElement()
                            .satisfies(line -> {
                                assertThat(line.owner()).as("a hold that belongs to no thread")
                                        .startsWith("hold ").endsWith("of lock 'shelf:" + sku + "'");
                                assertThat(line.kind()).isEqualTo(kind == LockKind.READ_WRITE ? "read-write (write)" : kind.id());
                            });
                    assertThat(view.locks()).filteredOn(line -> line.name().equals(byHand.name())).singleElement()
                            .satisfies(line -> {
                                assertThat(line.owner()).isEqualTo(Thread.currentThread().getName());
                                assertThat(line.kind()).isEqualTo(kind == LockKind.READ_WRITE ? "read-write (read)" : kind.id());
                            });
                } finally {
                    byHand.unlock();
                }
            } finally {
                leave.countDown();
            }
            holding.get(DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
            assertThat(endpoint.locks().locks()).as("nothing held after both released").isEmpty();
        }
    }

    /** A lock this test's thread takes itself: the read side of a read-write lock, a group of two names where there are groups. */
    private static DistLock byHand(Locks locks, LockKind kind, String name) {
        if (kind == LockKind.READ_WRITE) {
            return ((ReadWriteDistLock) locks.get(name)).readLock();
        }
        return locks instanceof CompositeLocks groups ? groups.getAll(name + "-a", name + "-b") : locks.get(name);
    }

    @Test
    void actuatorServesItReadOnlyWhenExposed() {
        ApplicationContextRunner runner = new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(LockstepAutoConfiguration.class))
                .withPropertyValues("lockstep.redis.host=" + node.address().getHost(),
                        "lockstep.redis.port=" + node.address().getPort());
        runner.run(context -> assertThat(context).doesNotHaveBean(LocksEndpoint.class));
        runner.withPropertyValues("management.endpoints.web.exposure.include=locks")
                .run(context -> assertThat(context).hasSingleBean(LocksEndpoint.class));
        // Actuator's own discovery, over JMX (a web server is not on this module's class path).
        runner.withPropertyValues("spring.jmx.enabled=true", "management.endpoints.jmx.exposure.include=locks")
                .withConfiguration(AutoConfigurations.of(JmxAutoConfiguration.class, EndpointAutoConfiguration.class,
                        JmxEndpointAutoConfiguration.class))
                .run(context -> assertThat(context.getBean(JmxEndpointsSupplier.class).getEndpoints())
                        .filteredOn(endpoint -> endpoint.getEndpointId().toString().equals("locks")).singleElement()
                        .satisfies(locks -> assertThat(locks.getOperations()).as("read-only").singleElement()
                                .satisfies(operation -> assertThat(operation.getType()).isEqualTo(OperationType.READ))));
    }
}
