package dev.lockstep.starter;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockstep.DistLock;
import dev.lockstep.LockObserver;
import dev.lockstep.LockOptions;
import dev.lockstep.Locks;
import dev.lockstep.metrics.MicrometerLockObserver;
import dev.lockstep.multi.MultiNameLocks;
import dev.lockstep.testkit.fixture.RedisNode;
import dev.lockstep.testkit.fixture.SingleNodeTest;
import dev.lockstep.v7.FencedLocks;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.UnifiedJedis;

/** Every bean, condition and property of the auto-configuration, in application contexts on real Redis servers. */
@Execution(ExecutionMode.CONCURRENT)
class AutoConfigurationTest extends SingleNodeTest {

    /** A second server: where {@code spring.data.redis} points, and RedLock's second master. */
    private static RedisNode other;

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(LockstepAutoConfiguration.class));

    @BeforeAll
    static void startOther() {
        other = fixture.start();
    }

    private static String[] on(RedisNode redis, String... more) {
        String[] all = new String[more.length + 2];
        all[0] = "lockstep.redis.host=" + redis.address().getHost();
        all[1] = "lockstep.redis.port=" + redis.address().getPort();
        System.arraycopy(more, 0, all, 2, more.length);
        return all;
    }

    @Test
    void theDefaultsAreStageFivesLockWithTheLibrarysLeases() {
        runner.withPropertyValues(on(node)).run(context -> {
            LockstepProperties properties = context.getBean(LockstepProperties.class);
            assertAll(
                    () -> assertInstanceOf(MultiNameLocks.class, context.getBean(Locks.class)),
                    () -> assertEquals("v5-pubsub-retry", properties.kind()),
                    () -> assertEquals(Duration.ofSeconds(10), properties.defaultWait()),
                    () -> assertEquals("", properties.keyPrefix()),
                    () -> assertEquals(LockOptions.defaults(), properties.options(LockObserver.NONE)),
                    () -> assertTrue(context.getBean(RedlockNodes.class).clients().isEmpty()),
                    () -> assertSame(LockObserver.NONE, context.getBean(LockObserver.class), "no registry, no meters"),
                    () -> assertEquals("PONG", context.getBean(UnifiedJedis.class).ping()));
        });
    }

    @Test
    void leasesAndReplicaSyncReachTheOptions() {
        runner.withPropertyValues(on(node, "lockstep.lease=700ms", "lockstep.watchdog-timeout=2s",
                "lockstep.replica-sync.replicas=1", "lockstep.replica-sync.timeout=50ms")).run(context -> {
            LockOptions options = context.getBean(LockstepProperties.class).options(LockObserver.NONE);
            assertEquals(LockOptions.defaults().withLease(Duration.ofMillis(700)).withWatchdogTimeout(Duration.ofSeconds(2))
                    .withReplicaSync(1, Duration.ofMillis(50)), options);
        });
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "v1-setnx, dev.lockstep.v1.SetnxLocks",
        "v2-owner-check, dev.lockstep.v2.OwnerCheckLocks",
        "v3-reentrant-hash, dev.lockstep.v3.ReentrantHashLocks",
        "v4-watchdog, dev.lockstep.v4.WatchdogLocks",
        "v5-pubsub-retry, dev.lockstep.multi.MultiNameLocks",
        "v7-fencing, dev.lockstep.v7.FencedLocks",
        "fair, dev.lockstep.fair.FairLocks",
        "read-write, dev.lockstep.rw.ReadWriteLocks",
        "multi-name, dev.lockstep.multi.MultiNameLocks",
    })
    void eachKindBuildsItsClientAndLocksOnTheConfiguredRedis(String kind, String type) {
        runner.withPropertyValues(on(node, "lockstep.kind=" + kind)).run(context -> {
            Locks locks = context.getBean(Locks.class);
            assertEquals(type, locks.getClass().getName());
            String name = "kind-" + kind;
            DistLock lock = locks.get(name);
            assertTrue(lock.tryLock(Duration.ZERO, Duration.ofSeconds(5)));
            try (Jedis admin = node.admin()) {
                assertEquals(1, admin.exists(name) ? 1 : 0, kind + " wrote its key on lockstep.redis");
            } finally {
                lock.unlock();
            }
        });
    }

    @Test
    void redlockTakesAQuorumOfTheMainServerAndTheListedNodes() {
        String node2 = other.address().getHost() + ":" + other.address().getPort();
        runner.withPropertyValues(on(node, "lockstep.kind=v6-redlock", "lockstep.redlock.nodes=" + node2)).run(context -> {
            Locks locks = context.getBean(Locks.class);
            assertEquals("dev.lockstep.v6.RedLocks", locks.getClass().getName());
            DistLock lock = locks.get("redlock-both");
            assertTrue(lock.tryLock(Duration.ZERO, Duration.ofSeconds(5)));
            try (Jedis first = node.admin(); Jedis second = other.admin()) {
                assertTrue(first.exists("redlock-both") && second.exists("redlock-both"), "a quorum of two is both");
            } finally {
                lock.unlock();
            }
        });
    }

    @Test
    void lockstepRedisWinsOverSpringDataRedis() {
        runner.withPropertyValues(on(node, "spring.data.redis.host=" + other.address().getHost(),
                "spring.data.redis.port=" + other.address().getPort())).run(context ->
                assertWhereTheLockLands(context.getBean(Locks.class), "lockstep-wins", node, other));
    }

    @Test
    void springDataRedisSaysWhereRedisIsWhenLockstepRedisIsUnset() {
        runner.withPropertyValues("spring.data.redis.host=" + other.address().getHost(),
                "spring.data.redis.port=" + other.address().getPort()).run(context ->
                assertWhereTheLockLands(context.getBean(Locks.class), "spring-data", other, node));
    }

    @Test
    void lockstepRedisDatabaseIsTheDatabaseTheLocksUse() {
        runner.withPropertyValues(on(node, "lockstep.redis.database=3")).run(context -> {
            DistLock lock = context.getBean(Locks.class).get("in-db-3");
            lock.lock();
            try (Jedis admin = node.admin()) {
                assertFalse(admin.exists("in-db-3"), "not in database 0");
                admin.select(3);
                assertTrue(admin.exists("in-db-3"), "in database 3");
            } finally {
                lock.unlock();
            }
        });
    }

    private static void assertWhereTheLockLands(Locks locks, String name, RedisNode there, RedisNode notThere)
            throws Exception {
        DistLock lock = locks.get(name);
        lock.lock();
        try (Jedis yes = there.admin(); Jedis no = notThere.admin()) {
            assertTrue(yes.exists(name), "the lock is on " + there.label());
            assertFalse(no.exists(name), "the lock is not on " + notThere.label());
        } finally {
            lock.unlock();
        }
    }

    @Test
    void theApplicationsOwnBeansWin() {
        UnifiedJedis own = closedAfter(node.newClient());
        Locks ownLocks = closedAfter(new FencedLocks(own, LockOptions.defaults()));
        LockObserver ownObserver = new LockObserver() { };
        // Nothing listens where lockstep.redis points: only the application's client can be in use.
        runner.withPropertyValues("lockstep.redis.port=1", "lockstep.kind=fair")
                .withBean(UnifiedJedis.class, () -> own)
                .withBean(LockObserver.class, () -> ownObserver)
                .withBean(SimpleMeterRegistry.class)
                .run(context -> {
                    assertSame(own, context.getBean(UnifiedJedis.class));
                    assertSame(ownObserver, context.getBean(LockObserver.class));
                    assertEquals("dev.lockstep.fair.FairLocks", context.getBean(Locks.class).getClass().getName());
                });
        runner.withPropertyValues(on(node)).withBean(Locks.class, () -> ownLocks)
                .run(context -> assertSame(ownLocks, context.getBean(Locks.class)));
    }

    @Test
    void metersAreBoundWhenTheApplicationHasARegistry() {
        runner.withPropertyValues(on(node)).withBean(SimpleMeterRegistry.class).run(context -> {
            assertInstanceOf(MicrometerLockObserver.class, context.getBean(LockObserver.class));
            DistLock lock = context.getBean(Locks.class).get("metered");
            lock.lock();
            lock.unlock();
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            assertEquals(1, registry.get("lockstep.lock.acquire").tag("outcome", "acquired").timer().count());
        });
    }

    @Test
    void withoutMicrometerThereIsNoObserverBean() {
        runner.withPropertyValues(on(node)).withClassLoader(new FilteredClassLoader(MeterRegistry.class))
                .run(context -> {
                    assertTrue(context.getBeansOfType(LockObserver.class).isEmpty());
                    assertNotNull(context.getBean(Locks.class));
                });
    }

    @Test
    void theHealthIndicatorIsUpWhileRedisAnswersAndDownWhenItDoesNot() {
        RedisNode stopping = fixture.start();
        runner.withPropertyValues(on(stopping, "lockstep.kind=v7-fencing", "lockstep.redis.timeout=300ms")).run(context -> {
            LockstepHealthIndicator indicator = context.getBean(LockstepHealthIndicator.class);
            Health up = indicator.health();
            assertEquals(Status.UP, up.getStatus());
            assertEquals("v7-fencing", up.getDetails().get("kind"));
            assertEquals(context.getBean(Locks.class).clientId(), up.getDetails().get("clientId"));
            stopping.kill();
            assertEquals(Status.DOWN, indicator.health().getStatus());
        });
    }

    @Test
    void withoutBootsHealthModuleThereIsNoHealthIndicator() {
        runner.withPropertyValues(on(node)).withClassLoader(new FilteredClassLoader("org.springframework.boot.health"))
                .run(context -> {
                    assertTrue(context.getBeansOfType(LockstepHealthIndicator.class).isEmpty());
                    assertNotNull(context.getBean(Locks.class));
                });
    }

    @Test
    void theHealthIndicatorCanBeTurnedOff() {
        runner.withPropertyValues(on(node, "management.health.lockstep.enabled=false"))
                .run(context -> assertTrue(context.getBeansOfType(LockstepHealthIndicator.class).isEmpty()));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "lockstep.lease=-1s            | lockstep.lease must be positive, was PT-1S",
        "lockstep.lease=0              | lockstep.lease must be positive, was PT0S",
        "lockstep.watchdog-timeout=0ms | lockstep.watchdog-timeout must be positive, was PT0S",
        "lockstep.wait=-5ms            | lockstep.wait must be zero or positive, was PT-0.005S",
        "lockstep.kind=v9-paxos        | lockstep.kind must be one of v1-setnx, v2-owner-check, v3-reentrant-hash, "
                + "v4-watchdog, v5-pubsub-retry, v6-redlock, v7-fencing, fair, read-write, multi-name; was 'v9-paxos'",
    })
    void aBadValueFailsTheStartWithAClearMessage(String property, String message) {
        runner.withPropertyValues(on(node, property.strip()))
                .run(context -> StartupFailure.assertSays(context, message.strip()));
    }

    @Test
    void shutdownClosesTheLocksAndThenTheirRedisClient() {
        AtomicReference<Locks> locks = new AtomicReference<>();
        AtomicReference<UnifiedJedis> redis = new AtomicReference<>();
        runner.withPropertyValues(on(node, "lockstep.kind=v7-fencing")).run(context -> {
            locks.set(context.getBean(Locks.class));
            redis.set(context.getBean(UnifiedJedis.class));
            locks.get().get("before-shutdown").lock();
        });
        IllegalStateException closed = assertThrows(IllegalStateException.class, () -> locks.get().get("after"));
        assertTrue(closed.getMessage().contains("closed"), closed.getMessage());
        assertThrows(RuntimeException.class, () -> redis.get().ping(), "the Redis client is closed too");
        try (Jedis admin = node.admin()) {
            assertTrue(admin.pttl("before-shutdown") > 0, "a held lock is not released on close: it expires");
        }
    }
}
