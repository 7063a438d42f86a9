package dev.lockstep.starter;

import static io.micrometer.observation.tck.TestObservationRegistryAssert.assertThat;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockstep.testkit.fixture.SingleNodeTest;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.util.TestPropertyValues;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/** A contended {@link Locked} call, observed through Micrometer's Observation API: one wait, one hold, with their keys. */
class ObservedLocksTest extends SingleNodeTest {

    private static final Duration DEADLINE = Duration.ofSeconds(20);

    /** A service on the class's Redis; {@code observations}, when not null, is its registry bean. */
    private ConfigurableApplicationContext start(ObservationRegistry observations) {
        AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext();
        TestPropertyValues.of("lockstep.redis.host=" + node.address().getHost(),
                "lockstep.redis.port=" + node.address().getPort(), "lockstep.key-prefix=shop:", "shelf.patience=150ms")
                .applyTo(context);
        context.register(LockstepAutoConfiguration.class);
        context.registerBean(Shelf.class, () -> new Shelf(new Shelf.Counts()));
        if (observations != null) {
            context.registerBean(ObservationRegistry.class, () -> observations);
        }
        context.refresh();
        return closedAfter(context);
    }

    @Test
    void aContendedCallRecordsOneWaitAndOneHold() throws Exception {
        TestObservationRegistry observations = TestObservationRegistry.create();
        CountDownLatch waiting = new CountDownLatch(1);
        observations.observationConfig().observationHandler(new ObservationHandler<>() {
            @Override
            public boolean supportsContext(Observation.Context context) {
                return LockedInterceptor.WAIT.equals(context.getName());
            }

            @Override
            public void onStart(Observation.Context context) {
                waiting.countDown();
            }
        });
        ConfigurableApplicationContext holding = start(null);
        ConfigurableApplicationContext observed = start(observations);
        CountDownLatch inside = new CountDownLatch(1);
        CountDownLatch leave = new CountDownLatch(1);
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            Future<?> holder = threads.submit(() -> holding.getBean(Shelf.class).hold("sku-o", inside, leave));
            assertTrue(inside.await(DEADLINE.toMillis(), TimeUnit.MILLISECONDS), "the first service's call never got in");
            Future<?> waiter = threads.submit(() -> observed.getBean(Shelf.class).sell("sku-o"));
            assertTrue(waiting.await(DEADLINE.toMillis(), TimeUnit.MILLISECONDS),
                    "the observed call never began to wait for the lock the other service holds");
            leave.countDown();
            holder.get(DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
            waiter.get(DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
        } finally {
            threads.shutdownNow();
        }
        assertThat(observations)
                .hasNumberOfObservationsWithNameEqualTo(LockedInterceptor.WAIT, 1)
                .hasNumberOfObservationsWithNameEqualTo(LockedInterceptor.HOLD, 1)
                .hasObservationWithNameEqualTo(LockedInterceptor.WAIT).that()
                .hasBeenStarted().hasBeenStopped()
                .hasLowCardinalityKeyValue("lock.name", "shop:shelf")
                .hasLowCardinalityKeyValue("lock.kind", "v5-pubsub-retry")
                .hasLowCardinalityKeyValue("outcome", "taken")
                .hasHighCardinalityKeyValue("lock.key", "shop:shelf:sku-o");
        assertThat(observations).hasObservationWithNameEqualTo(LockedInterceptor.HOLD).that()
                .hasBeenStarted().hasBeenStopped()
                .hasLowCardinalityKeyValue("lock.name", "shop:shelf")
                .hasHighCardinalityKeyValue("lock.key", "shop:shelf:sku-o");
    }
}
