package dev.lockstep.testkit.contract;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockstep.DistLock;
import dev.lockstep.Guarantee;
import dev.lockstep.LockOptions;
import dev.lockstep.Locks;
import dev.lockstep.testkit.client.LockThread;
import dev.lockstep.testkit.fixture.Await;
import dev.lockstep.testkit.interop.InteropGround;
import dev.lockstep.testkit.interop.RedissonClients;
import dev.lockstep.testkit.stage.Stage;
import dev.lockstep.testkit.watch.RedisTraffic;
import dev.lockstep.testkit.watch.Stalls;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.redisson.api.RLock;

/**
 * Redisson's {@code getLock(name)} and a stage's {@code get(name)} are one lock: they exclude each
 * other, and each one's unlock wakes the other's waiter within {@link #WOKEN_WITHIN}, on one
 * server and on a 3-master Redis Cluster. A stage's test class only names the stage:
 *
 * <pre>{@code class RedissonInteropTest extends RedissonInteropContract {
 *     RedissonInteropTest() { super("v5-pubsub-retry", PubSubLocks.class); }
 * }}</pre>
 *
 * <p>Holders take a 30 s lease and waiters wait up to 10 s, so a waiter that missed the release
 * would still be asleep long after {@link #WOKEN_WITHIN}. A Redisson waiter sleeps on the release
 * channel; a Lockstep waiter sleeps on it from stage 5 on and polls every {@link #SPIN} before.
 * Both clients own a lock by thread, so each holder is one {@link LockThread}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class RedissonInteropContract {

    /**
     * The wake-up the tests demand after an unlock, on a busy 2-core machine: a waiter woken by the
     * release gets in within a few ms, or a few hundred when other JVMs crowd the cores (a Cluster's
     * six servers among them); one that missed it sleeps out the holder's 30 s lease.
     */
    public static final Duration WOKEN_WITHIN = Duration.ofMillis(500);
    /** How often a waiter of a stage without pub/sub asks again. */
    private static final Duration SPIN = Duration.ofMillis(20);
    private static final Duration LEASE = Duration.ofSeconds(30);
    private static final Duration WAIT = Duration.ofSeconds(10);
    /** How long a blocked client tries before giving up: several round trips and spins, far below any lease. */
    private static final Duration SHORT_WAIT = Duration.ofMillis(200);

    /** Where both clients run. */
    public enum Topology { SERVER, CLUSTER }

    private final Map<Topology, InteropGround> grounds = new EnumMap<>(Topology.class);
    private final Stage stage;

    /** The contract for stage {@code name}, whose entry point is {@code locks}. */
    protected RedissonInteropContract(String name, Class<? extends Locks> locks) {
        this.stage = new Stage(name, locks);
    }

    @BeforeAll
    void start() {
        LockOptions options = LockOptions.defaults().withSpinInterval(SPIN);
        grounds.put(Topology.SERVER, InteropGround.server(stage, options));
        grounds.put(Topology.CLUSTER, InteropGround.cluster(stage, options));
    }

    @AfterAll
    void stop() {
        grounds.values().forEach(InteropGround::close);
        RedissonClients.awaitAllShutDown();
    }

    @ParameterizedTest
    @EnumSource(Topology.class)
    void eachExcludesTheOther(Topology topology) throws Exception {
        InteropGround ground = grounds.get(topology);
        String name = "orders";
        RLock theirs = ground.redisson().getLock(name);
        DistLock ours = ground.locks().get(name);
        try (LockThread redissonThread = new LockThread("redisson"); LockThread oursThread = new LockThread(stage.name())) {
            oursThread.run(() -> ours.lock(LEASE));
            assertFalse(redissonThread.call(() -> theirs.tryLock(SHORT_WAIT.toMillis(), LEASE.toMillis(),
                    TimeUnit.MILLISECONDS)), "Redisson took a lock " + stage.name() + " holds");
            oursThread.run(ours::unlock);

            redissonThread.run(() -> theirs.lock(LEASE.toMillis(), TimeUnit.MILLISECONDS));
            assertFalse(oursThread.call(() -> ours.tryLock(SHORT_WAIT, LEASE)),
                    stage.name() + " took a lock Redisson holds");
            redissonThread.run(theirs::unlock);
        }
        assertFalse(ground.redis().exists(name), "the lock outlived both unlocks");
    }

    @ParameterizedTest
    @EnumSource(Topology.class)
    void aRedissonWaiterWakesOnOurUnlock(Topology topology) throws Exception {
        InteropGround ground = grounds.get(topology);
        String name = "orders-redisson-waits";
        assertTheReleaseWakes(ground, topology, name, ours(ground, name), redisson(ground, name));
    }

    @ParameterizedTest
    @EnumSource(Topology.class)
    void ourWaiterWakesOnRedissonsUnlock(Topology topology) throws Exception {
        InteropGround ground = grounds.get(topology);
        String name = "orders-lockstep-waits";
        assertTheReleaseWakes(ground, topology, name, redisson(ground, name), ours(ground, name));
    }

    /** {@code holder} holds; {@code waiter} waits, asleep or polling; {@code holder}'s unlock must let it in at once. */
    private static void assertTheReleaseWakes(InteropGround ground, Topology topology, String name, Side holder, Side waiter)
            throws Exception {
        try (LockThread holderThread = new LockThread(holder.who()); LockThread waiterThread = new LockThread(waiter.who())) {
            holderThread.run(holder.lock());
            long scriptsBefore = scriptRuns(ground);
            Future<Long> acquiredAt = waiterThread.submit(() -> waiter.waitToLock().call() ? System.nanoTime() : -1L);
            // A waiter tries, subscribes (if it listens) and tries again before it sleeps.
            awaitAsleep(ground, waiter.who() + "'s waiter is waiting", name, scriptsBefore, waiter.listens());

            long releasedAt = System.nanoTime();
            holderThread.run(holder.unlock());
            assertWokenWithin(LockThread.get(acquiredAt, LockThread.DEADLINE), releasedAt,
                    waiter.who() + "'s waiter, after " + holder.who() + "'s unlock on " + topology);
            waiterThread.run(waiter.unlock());
        }
        assertFalse(ground.redis().exists(name), "the lock outlived both unlocks");
    }

    /** Redisson's side of lock {@code name}: a 30 s lease, a wait of {@link #WAIT}. */
    private static Side redisson(InteropGround ground, String name) {
        RLock lock = ground.redisson().getLock(name);
        return new Side("Redisson", () -> lock.lock(LEASE.toMillis(), TimeUnit.MILLISECONDS),
                () -> lock.tryLock(WAIT.toMillis(), LEASE.toMillis(), TimeUnit.MILLISECONDS), lock::unlock, true);
    }

    /** The stage's side of lock {@code name}: the same lease and wait; it listens from stage 5 on, else polls. */
    private Side ours(InteropGround ground, String name) {
        DistLock lock = ground.locks().get(name);
        return new Side(stage.name(), () -> lock.lock(LEASE), () -> lock.tryLock(WAIT, LEASE), lock::unlock,
                ground.locks().guarantees().contains(Guarantee.EFFICIENT_WAIT));
    }

    /** One client's way with a lock: take it, wait for it, let it go, and whether its waiter listens on the channel. */
    private record Side(String who, LockThread.Step lock, Callable<Boolean> waitToLock, LockThread.Step unlock,
                        boolean listens) {
    }

    /**
     * Fails unless {@code who} acquired (at {@code acquiredAt}, nanoTime; -1: never) within {@link
     * #WOKEN_WITHIN} of the release, plus the time this JVM's threads waited to run in between
     * ({@link Stalls}): other test JVMs may load the machine, never by the seconds a missed release costs.
     */
    public static void assertWokenWithin(long acquiredAt, long releasedAt, String who) {
        assertTrue(acquiredAt > 0, who + " never got the lock");
        long micros = TimeUnit.NANOSECONDS.toMicros(acquiredAt - releasedAt);
        long stalledMicros = TimeUnit.NANOSECONDS.toMicros(Stalls.nanosBetween(releasedAt, acquiredAt));
        System.out.printf("RedissonInteropContract: %s took it %d µs after the unlock was sent (threads stalled %d µs)%n",
                who, micros, stalledMicros);
        assertTrue(micros < WOKEN_WITHIN.toNanos() / 1000 + stalledMicros, who + " took it " + micros / 1000
                + " ms after the unlock was sent, more than " + WOKEN_WITHIN.toMillis() + " ms and the "
                + stalledMicros / 1000 + " ms this JVM's threads waited to run: the release did not wake it");
    }

    private static long scriptRuns(InteropGround ground) {
        return ground.nodes().stream().mapToLong(RedisTraffic::scriptRuns).sum();
    }

    /**
     * The waiter tried twice since {@code scriptsBefore} (before and after subscribing, or two
     * polls) and, if {@code subscribes}, listens on the lock's channel: it waits, or is about to.
     */
    private static void awaitAsleep(InteropGround ground, String what, String name, long scriptsBefore,
                                    boolean subscribes) {
        // Redisson's release channel of a name without braces, written out here as a cross-check of both clients.
        String channel = "redisson_lock__channel:{" + name + "}";
        Await.until(what, LockThread.DEADLINE, () -> scriptRuns(ground) - scriptsBefore >= 2
                && (!subscribes || RedisTraffic.subscribers(ground.nodes(), channel) >= 1));
    }
}
