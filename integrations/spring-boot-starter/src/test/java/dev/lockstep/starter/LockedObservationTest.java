package dev.lockstep.starter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockstep.testkit.fixture.SingleNodeTest;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.util.TestPropertyValues;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;

/**
 * {@link Locked} calls' waits and holds in Micrometer's test registry, with a meter handler beside
 * it as Spring Boot wires one: names, keys, outcomes, and which keys become meter tags.
 */
class LockedObservationTest extends SingleNodeTest {

    /** Each call on a thread of its own: the common pool may have one worker, which a blocked call would keep. */
    private static final Executor ON_ITS_OWN_THREAD = call -> new Thread(call, "caller").start();

    private static final Duration DEADLINE = Duration.ofSeconds(20);
    private static final String WAIT = "lockstep.lock.wait";
    private static final String HOLD = "lockstep.lock.hold";

    private final TestObservationRegistry observations = TestObservationRegistry.create();
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    /** Counts down once per wait observation started. */
    private final CountDownLatch waitsStarted = new CountDownLatch(2);
    private AnnotationConfigApplicationContext context;
    private Shelf shelf;

    @BeforeEach
    void start() {
        observations.observationConfig()
                .observationHandler(new DefaultMeterObservationHandler(meters))
                .observationHandler(new ObservationHandler<>() {
                    @Override
                    public boolean supportsContext(Observation.Context observed) {
                        return true;
                    }

                    @Override
                    public void onStart(Observation.Context observed) {
                        if (WAIT.equals(observed.getName())) {
                            waitsStarted.countDown();
                        }
                    }
                });
        context = new AnnotationConfigApplicationContext();
        TestPropertyValues.of("lockstep.redis.host=" + node.address().getHost(),
                "lockstep.redis.port=" + node.address().getPort(), "lockstep.key-prefix=shop:",
                "shelf.patience=150ms").applyTo(context);
        context.register(LockstepAutoConfiguration.class);
        context.registerBean(ObservationRegistry.class, () -> observations);
        context.registerBean(Shelf.class, () -> new Shelf(new Shelf.Counts()));
        context.refresh();
        shelf = context.getBean(Shelf.class);
    }

    @AfterEach
    void stop() {
        context.close();
    }

    @Test
    void aContendedCallRecordsOneWaitAndOneHold() throws Exception {
        CountDownLatch inside = new CountDownLatch(1);
        CountDownLatch leave = new CountDownLatch(1);
        CompletableFuture<Void> holding = CompletableFuture.runAsync(() -> shelf.hold("sku-1", inside, leave), ON_ITS_OWN_THREAD);
        CompletableFuture<Void> waiting;
        try {
            assertTrue(inside.await(DEADLINE.toMillis(), TimeUnit.MILLISECONDS), "the first call holds the lock");
            waiting = CompletableFuture.runAsync(() -> shelf.sell("sku-1"), ON_ITS_OWN_THREAD);
            assertTrue(waitsStarted.await(DEADLINE.toMillis(), TimeUnit.MILLISECONDS), "the second call waits");
        } finally {
            leave.countDown();
        }
        holding.get(DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
        waiting.get(DEADLINE.toMillis(), TimeUnit.MILLISECONDS);

        // Two calls, the second one contended: one wait and one hold each.
        TestObservationRegistryAssert.assertThat(observations)
                .hasNumberOfObservationsWithNameEqualTo(WAIT, 2)
                .hasNumberOfObservationsWithNameEqualTo(HOLD, 2)
                .forAllObservationsWithNameEqualTo(WAIT, wait -> wait
                        .hasContextualNameEqualTo("lock wait shop:shelf")
                        .hasLowCardinalityKeyValue("lockstep.lock.name", "shop:shelf")
                        .hasLowCardinalityKeyValue("lockstep.lock.kind", "v5-pubsub-retry")
                        .hasLowCardinalityKeyValue("outcome", "acquired")
                        .hasHighCardinalityKeyValue("lockstep.lock.key", "shop:shelf:sku-1"))
                .forAllObservationsWithNameEqualTo(HOLD, hold -> hold
                        .hasContextualNameEqualTo("lock hold shop:shelf")
                        .hasLowCardinalityKeyValue("lockstep.lock.name", "shop:shelf")
                        .hasLowCardinalityKeyValue("lockstep.lock.kind", "v5-pubsub-retry")
                        .hasHighCardinalityKeyValue("lockstep.lock.key", "shop:shelf:sku-1"));
        // A timer records at the stop: every observation ended.
        assertThat(meters.get(WAIT).timer().count()).as("the wait timer").isEqualTo(2);
        assertThat(meters.get(HOLD).timer().count()).as("the hold timer").isEqualTo(2);
        List<String> waitTags = meters.get(WAIT).timer().getId().getTags().stream().map(Tag::getKey).toList();
        assertThat(waitTags).as("a meter is tagged with bounded keys only")
                .contains("lockstep.lock.name", "lockstep.lock.kind", "outcome")
                .doesNotContain("lockstep.lock.key");
    }

    @Test
    void aWaitThatRunsOutRecordsNoHold() throws Exception {
        CountDownLatch inside = new CountDownLatch(1);
        CountDownLatch leave = new CountDownLatch(1);
        CompletableFuture<Void> holding = CompletableFuture.runAsync(() -> shelf.hold("sku-2", inside, leave), ON_ITS_OWN_THREAD);
        try {
            assertTrue(inside.await(DEADLINE.toMillis(), TimeUnit.MILLISECONDS), "the first call holds the lock");
            // From here on only the impatient call starts observations.
            observations.clear();
            assertThrows(Shelf.SoldOut.class, () -> shelf.impatient("sku-2"));
        } finally {
            leave.countDown();
        }
        holding.get(DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
        TestObservationRegistryAssert.assertThat(observations)
                .hasNumberOfObservationsWithNameEqualTo(WAIT, 1)
                .hasNumberOfObservationsWithNameEqualTo(HOLD, 0)
                .hasObservationWithNameEqualTo(WAIT).that().hasBeenStopped()
                .hasLowCardinalityKeyValue("outcome", "timed_out")
                .hasHighCardinalityKeyValue("lockstep.lock.key", "shop:shelf:sku-2");
        assertThat(meters.find(WAIT).tag("outcome", "timed_out").timers()).as("the timed-out waits' timer")
                .singleElement().extracting(Meter::getId).extracting(id -> id.getTag("lockstep.lock.name"))
                .isEqualTo("shop:shelf");
    }
}
