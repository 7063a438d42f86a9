package dev.lockstep.testkit.contract;

import dev.lockstep.DistLock;
import dev.lockstep.Guarantee;
import dev.lockstep.LockOptions;
import dev.lockstep.Locks;
import dev.lockstep.RedisUnreachableException;
import dev.lockstep.internal.AbstractLocks;
import dev.lockstep.internal.Args;
import dev.lockstep.testkit.client.ClientProcess;
import dev.lockstep.testkit.client.LockThread;
import dev.lockstep.testkit.client.Threads;
import dev.lockstep.testkit.explore.ScheduleExplorer;
import dev.lockstep.testkit.fault.FaultyLink;
import dev.lockstep.testkit.fixture.Await;
import dev.lockstep.testkit.fixture.RedisBinary;
import dev.lockstep.testkit.fixture.RedisFixture;
import dev.lockstep.testkit.fixture.RedisNode;
import dev.lockstep.testkit.fixture.ServerSecurity;
import dev.lockstep.testkit.history.Actor;
import dev.lockstep.testkit.history.Timeline;
import dev.lockstep.testkit.scenario.Catalog;
import dev.lockstep.testkit.scenario.Outcome;
import dev.lockstep.testkit.scenario.Scenario;
import dev.lockstep.testkit.scenario.ScenarioContext;
import dev.lockstep.testkit.scenario.Scoreboard;
import dev.lockstep.testkit.stage.Stage;
import dev.lockstep.testkit.watch.MonitorWatch;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ArgumentsSource;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.RedisClient;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The contract every stage runs. A stage's test class only names the stage and its claims:
 *
 * <pre>{@code @StageSpec(name = "v1-setnx", locks = SetnxLocks.class, claims = LIVENESS_AFTER_CRASH)
 * class SetnxLocksTest extends LockContract {}}</pre>
 *
 * <p>Every scenario runs on the stage: a claimed guarantee must hold; an unclaimed one must be
 * reproduced, its timeline printed. The tests run side by side, since they mostly wait; a timed
 * scenario, and a test that disturbs the whole JVM, run alone once the others are done ({@link
 * TimingSlots}). With {@code -Dlockstep.strict=true} every unclaimed scenario
 * fails, with its timeline as the message. The scoreboard is printed after the class and written
 * to {@code target/lockstep-scoreboard.md}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Execution(ExecutionMode.CONCURRENT)
@ExtendWith(TimingSlots.class)
public abstract class LockContract implements CallFaults {

    private static final Duration BOUNDED = Duration.ofSeconds(10);

    private final Scoreboard scoreboard = new Scoreboard();
    private StageSpec spec;
    private Stage stage;
    private ServerSecurity security = ServerSecurity.NONE;
    private RedisFixture fixture;
    private List<RedisNode> nodes;
    /** What the tests opened, closed after the class; the tests run concurrently, so they add to it at once. */
    private final List<AutoCloseable> opened = Collections.synchronizedList(new ArrayList<>());

    @BeforeAll
    void startRedis() {
        spec = getClass().getAnnotation(StageSpec.class);
        if (spec == null) {
            throw new IllegalStateException(getClass().getName() + " needs a @StageSpec");
        }
        stage = new Stage(spec.name(), spec.locks());
        Secured secured = getClass().getAnnotation(Secured.class);
        if (secured != null) {
            security = secured.value();
            boolean tls = security != ServerSecurity.TLS || RedisBinary.get().supportsTls();
            if (!tls) {
                System.out.println("lockstep: " + stage + " over TLS skipped: redis-server " + RedisBinary.get().version()
                        + " at " + RedisBinary.get().path() + " was built without TLS");
            }
            assumeTrue(tls, "redis-server was built without TLS");
        }
        fixture = security == ServerSecurity.NONE ? RedisFixture.fromSystemProperty() : RedisFixture.processes(security);
        nodes = startNodes();
        System.out.println("lockstep: " + stage + " on " + fixture.description());
    }

    @AfterAll
    void printScoreboardAndCheckForLeaks() throws InterruptedException {
        closeAll();
        if (fixture != null) {
            fixture.close();
        }
        scoreboard.orderColumns(Catalog.all().stream().map(Scenario::id).toList());
        String table = scoreboard.markdown();
        String suffix = security == ServerSecurity.NONE ? "" : "-" + security.name().toLowerCase(Locale.ROOT);
        System.out.println("\nlockstep scoreboard" + suffix.replace('-', ' ') + "\n\n" + table);
        scoreboard.write(Path.of("target", "lockstep-scoreboard" + suffix + ".md"));
        assertNoLockstepThreadsLeft();
    }

    /** Every scenario, client and fault closed what it started: no testkit or stage thread may outlive them. */
    private static void assertNoLockstepThreadsLeft() throws InterruptedException {
        long deadline = System.nanoTime() + BOUNDED.toNanos();
        List<String> left = Threads.named("lockstep-");
        while (!left.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(50);
            left = Threads.named("lockstep-");
        }
        assertTrue(left.isEmpty(), "threads leaked: " + left);
    }

    @Override
    public Stage stage() {
        return stage;
    }

    @Override
    public RedisFixture fixture() {
        return fixture;
    }

    @Override
    public ServerSecurity security() {
        return security;
    }

    private boolean claims(Guarantee guarantee) {
        return Set.of(spec.claims()).contains(guarantee);
    }

    /** As many fresh nodes as the stage uses. */
    private List<RedisNode> startNodes() {
        List<RedisNode> started = new ArrayList<>();
        for (int i = 0; i < stage.nodeCount(); i++) {
            started.add(fixture.start());
        }
        return started;
    }

    private Locks open(LockOptions options) {
        return open(nodes, options);
    }

    private Locks open(List<RedisNode> on, LockOptions options) {
        return openAt(ScenarioContext.addresses(on), options);
    }

    /** A client over {@code addresses}, closed after the class (before its connections). */
    private Locks openAt(List<HostAndPort> addresses, LockOptions options) {
        List<RedisClient> clients = new ArrayList<>();
        for (HostAndPort address : addresses) {
            RedisClient redis = RedisNode.newClient(address, fixture.security());
            opened.add(redis);
            clients.add(redis);
        }
        Locks locks = stage.open(clients, options);
        opened.add(0, locks);
        return locks;
    }

    private Locks open() {
        return open(Stage.leaseOptions(Duration.ofSeconds(5)).withSpinInterval(Duration.ofMillis(20)));
    }

    private void closeAll() {
        List<AutoCloseable> all;
        synchronized (opened) {
            all = new ArrayList<>(opened);
        }
        for (AutoCloseable c : all) {
            try {
                c.close();
            } catch (Exception e) {
                // Best effort: a client of a killed node may fail to close.
            }
        }
        opened.clear();
    }

    // ---- scenarios -------------------------------------------------------------------------

    /**
     * The scenarios a password or TLS run plays again: those that open another kind of connection
     * (a child JVM, a client behind a fault link, a resubscription, a replica, a restarted node).
     * The others differ from the plain run only in how the sockets connect.
     */
    private static final Set<String> OVER_EVERY_TRANSPORT = Set.of("crash-holder", "partitioned-holder", "lost-reply",
            "dropped-subscription", "failover+wait", "restart-amnesia");

    @ParameterizedTest(name = "{0}")
    @ArgumentsSource(ScenarioArguments.class)
    void scenario(Scenario scenario) {
        assumeTrue(security == ServerSecurity.NONE || OVER_EVERY_TRANSPORT.contains(scenario.id()),
                () -> scenario.id() + " plays alike on any transport: the plain run plays it");
        Outcome outcome = Outcome.run(stage, scenario, fixture);
        scoreboard.add(outcome);
        assumeTrue(scenario.appliesTo(stage), () -> scenario.id() + " needs " + scenario.needs());
        String report = outcome.report();
        System.out.println("\n" + report);
        Timeline.render(outcome.history()).lines().filter(row -> row.length() > Timeline.COLUMNS).findFirst()
                .ifPresent(row -> fail("a timeline row is wider than " + Timeline.COLUMNS + " columns:\n" + row));
        boolean strict = Boolean.getBoolean("lockstep.strict");
        switch (outcome.cell()) {
            case PREVENTED -> {
            }
            case REPRODUCED -> {
                if (strict) {
                    fail("-Dlockstep.strict: " + stage + " does not prevent " + scenario.id() + "\n\n" + report);
                }
            }
            case FAILED -> fail(report, outcome.error());
            case NOT_APPLICABLE -> {
            }
        }
    }

    @Test
    void claimsAreWhatTheStageReports() {
        Set<Guarantee> declared = spec.claims().length == 0
                ? EnumSet.noneOf(Guarantee.class) : EnumSet.copyOf(List.of(spec.claims()));
        assertEquals(declared, open().guarantees());
    }

    /**
     * No lock code holds a monitor while it writes to or reads from Redis: on JDK 21 to 23 a virtual
     * thread blocked on a socket inside {@code synchronized} pins its carrier thread. Holders, waiters
     * (asleep on pub/sub from stage 5 on), a timed-out try and an interrupted waiter, all on clients
     * that check every call ({@link MonitorWatch}).
     */
    /** Alone: it dumps the calling thread's monitors on every Redis call, which stops every thread of the JVM. */
    @Test
    @PlaysAlone
    void talksToRedisWithoutHoldingAMonitor() throws Exception {
        assumeTrue(security == ServerSecurity.NONE, "which monitors are held does not depend on the transport");
        MonitorWatch watch = new MonitorWatch();
        List<RedisClient> clients = new ArrayList<>();
        for (RedisNode node : nodes) {
            RedisClient redis = watch.client(node.address());
            opened.add(redis);
            clients.add(redis);
        }
        Locks locks = stage.open(clients, Stage.leaseOptions(Duration.ofSeconds(5))
                .withSpinInterval(Duration.ofMillis(20)));
        opened.add(0, locks);
        ExecutorService workers = Executors.newFixedThreadPool(4, task -> new Thread(task, "monitor-watch-worker"));
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int w = 0; w < 4; w++) {
                // Two names: a second channel joins and leaves a subscription already open.
                String name = "monitor-watch-" + w % 2;
                done.add(workers.submit(() -> {
                    DistLock lock = locks.get(name);
                    for (int round = 0; round < 5; round++) {
                        if (lock.tryLock(BOUNDED, null)) {
                            Thread.sleep(5);
                            lock.unlock();
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> worker : done) {
                worker.get(BOUNDED.toMillis() * 2, TimeUnit.MILLISECONDS);
            }
            DistLock held = locks.get("monitor-watch-0");
            assertTrue(held.tryLock(BOUNDED, null));
            Future<Boolean> timedOut = workers.submit(() -> locks.get("monitor-watch-0").tryLock(Duration.ofMillis(50), null));
            assertFalse(timedOut.get(BOUNDED.toMillis(), TimeUnit.MILLISECONDS));
            Future<Boolean> interrupted = workers.submit(() -> locks.get("monitor-watch-0").tryLock(BOUNDED, null));
            // If it has not begun to wait yet, the interrupt meets it at the start: checked all the same.
            Thread.sleep(50);
            interrupted.cancel(true);
            held.unlock();
        } finally {
            workers.shutdownNow();
            assertTrue(workers.awaitTermination(BOUNDED.toMillis(), TimeUnit.MILLISECONDS));
        }
        assertEquals(List.of(), watch.violations());
    }

    /** Alone: its holders' leases are short, and a loss must be told within a margin a crowded JVM can miss. */
    @Test
    @PlaysAlone
    void randomSchedulesKeepTheClaims() throws Exception {
        // A password or TLS changes how clients connect, not which schedules break a claim: the plain run explores them.
        assumeTrue(security == ServerSecurity.NONE, "random schedules run on the plain servers only");
        ScheduleExplorer.Report report = new ScheduleExplorer(stage, fixture, Set.of(spec.claims())).explore();
        System.out.println(report.summary());
        if (!report.passed()) {
            fail(report.failure());
        }
    }

    // ---- basic behaviour -------------------------------------------------------------------

    @Test
    void oneHolderAtATime() throws InterruptedException {
        DistLock a = open().get("basic");
        DistLock b = open().get("basic");
        assertTrue(a.tryLock(Duration.ZERO, null));
        assertTrue(a.isHeldByCurrentThread());
        assertFalse(b.tryLock(Duration.ofMillis(100), null), "a second client took a held lock");
        a.unlock();
        assertFalse(a.isHeldByCurrentThread());
        assertTrue(b.tryLock(Duration.ofSeconds(1), null), "a released lock stayed taken");
        b.unlock();
    }

    @Test
    void theLockAdaptersWork() throws InterruptedException {
        DistLock lock = open().get("adapters");
        lock.lock();
        lock.unlock();
        lock.lockInterruptibly();
        lock.unlock();
        assertTrue(lock.tryLock());
        lock.unlock();
        assertTrue(lock.tryLock(1, TimeUnit.SECONDS));
        lock.unlock();
        lock.lock(Duration.ofSeconds(2));
        lock.unlock();
        assertThrows(UnsupportedOperationException.class, lock::newCondition);
    }

    @Test
    void theLeaseFreesALockThatIsNeverUnlocked() throws InterruptedException {
        Locks client = open();
        assertTrue(client.get("abandoned").tryLock(Duration.ZERO, Duration.ofMillis(200)));
        assertTrue(open().get("abandoned").tryLock(Duration.ofSeconds(3), null),
                "a lock nobody unlocked never expired");
    }

    @Test
    void unlockByANonHolder() throws Exception {
        Locks client = open();
        DistLock held = client.get("not-yours");
        assertTrue(held.tryLock(Duration.ZERO, null));
        DistLock intruder = open().get("not-yours");
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread other = Threads.factory("intruder").newThread(() -> {
            try {
                intruder.unlock();
            } catch (Throwable t) {
                thrown.set(t);
            }
        });
        other.start();
        other.join(BOUNDED.toMillis());
        boolean stillHeld = !open().get("not-yours").tryLock(Duration.ZERO, null);
        if (claims(Guarantee.OWNER_ONLY_RELEASE)) {
            assertTrue(thrown.get() instanceof IllegalMonitorStateException,
                    "a non-holder's unlock should throw IllegalMonitorStateException, threw " + thrown.get());
            assertTrue(stillHeld, "a non-holder's unlock released the lock");
        } else {
            // The stage cannot tell owners apart: the stranger's unlock deletes the lock. Its lesson.
            assertTrue(thrown.get() == null && !stillHeld, "expected the stranger's unlock to delete the lock");
        }
    }

    @Test
    void reentrantHoldsAreCounted() throws InterruptedException {
        assumeTrue(claims(Guarantee.REENTRANT), "the stage does not claim REENTRANT");
        DistLock lock = open().get("counted");
        DistLock other = open().get("counted");
        assertTrue(lock.tryLock(Duration.ZERO, null));
        assertTrue(lock.tryLock(Duration.ZERO, null));
        lock.unlock();
        assertTrue(lock.isHeldByCurrentThread(), "the inner unlock released the outer hold");
        assertFalse(other.tryLock(Duration.ZERO, null));
        lock.unlock();
        assertFalse(lock.isHeldByCurrentThread());
        assertThrows(IllegalMonitorStateException.class, lock::unlock, "one unlock too many");
        assertTrue(other.tryLock(Duration.ZERO, null));
        other.unlock();
    }

    @Test
    void theOperationalCallsReportTheHold() throws Exception {
        DistLock lock = open().get("reported");
        DistLock other = open().get("reported");
        Duration lease = Duration.ofSeconds(10);
        assertFalse(lock.isLocked(), "a lock nobody took");
        assertEquals(Duration.ZERO, lock.remainingLease());
        assertEquals(0, lock.holdCount());

        assertTrue(lock.tryLock(Duration.ZERO, lease));
        assertTrue(other.isLocked(), "any client sees the lock taken");
        Duration left = other.remainingLease();
        assertTrue(left.compareTo(Duration.ZERO) > 0 && left.compareTo(lease) <= 0, "remaining lease " + left);
        assertEquals(1, lock.holdCount());
        assertEquals(0, other.holdCount(), "another client holds nothing");
        if (claims(Guarantee.REENTRANT)) {
            assertTrue(lock.tryLock(Duration.ZERO, lease));
            assertEquals(2, lock.holdCount());
            lock.unlock();
            assertEquals(1, lock.holdCount());
        }
        try (LockThread elsewhere = new LockThread("another-thread")) {
            assertEquals(0, elsewhere.call(lock::holdCount), "another thread of the holding client holds nothing");
        }
        lock.unlock();
        assertFalse(other.isLocked(), "released");
        assertEquals(0, lock.holdCount());
    }

    /** Alone: it asks for a full collection every 10 ms, and each one stops every thread of the JVM. */
    @Test
    @PlaysAlone
    void lockObjectsNobodyHoldsOrReferencesAreCollectedAndHeldOnesAreKept() throws Exception {
        AbstractLocks locks = (AbstractLocks) open();
        DistLock kept = locks.get("kept");
        kept.lock();
        int keptIdentity = System.identityHashCode(kept);
        kept = null;
        int names = 300;
        for (int i = 0; i < names; i++) {
            DistLock lock = locks.get("passing-" + i);
            lock.lock();
            lock.unlock();
        }
        Await.until("lock objects nobody holds or references are collected", BOUNDED, () -> {
            System.gc();
            return locks.lockObjects() < names / 2;
        });
        // Collected or not, a held lock's object is the one its holder gets back, knowing it holds it.
        DistLock again = locks.get("kept");
        assertEquals(keptIdentity, System.identityHashCode(again), "the held lock's object was dropped");
        assertTrue(again.isHeldByCurrentThread());
        again.unlock();
    }

    @Test
    void forceUnlockFreesTheLockAndLetsAWaiterIn() throws Exception {
        Locks admin = open();
        DistLock holder = open().get("forced");
        DistLock waiter = open().get("forced");
        Duration longLease = Duration.ofSeconds(30);
        assertFalse(admin.get("forced").forceUnlock(), "nothing to force");
        assertTrue(holder.tryLock(Duration.ZERO, longLease));
        try (LockThread waiting = new LockThread("waiter")) {
            Future<Boolean> taken = waiting.submit(() -> waiter.tryLock(BOUNDED, longLease));
            Await.until("the waiter waits", BOUNDED, () -> waiting.thread().getState() == Thread.State.TIMED_WAITING);
            long forced = System.nanoTime();
            assertTrue(admin.get("forced").forceUnlock(), "a held lock was there to force");
            assertTrue(LockThread.get(taken, BOUNDED), "the waiter never got the forced lock");
            long micros = TimeUnit.NANOSECONDS.toMicros(System.nanoTime() - forced);
            System.out.printf("%s: a waiter took a forced lock %d µs after forceUnlock%n", stage, micros);
            // Well before the holder's 30 s lease: the force freed it (and, with a release channel, woke the waiter).
            assertTrue(micros < BOUNDED.toNanos() / 1000, "took " + micros / 1000 + " ms");
            waiting.run(waiter::unlock);
        }
    }

    @Test
    void anInterruptedWaiterGivesUpAndHoldsNothing() throws Exception {
        DistLock holder = open().get("interrupted");
        DistLock waiter = open().get("interrupted");
        assertTrue(holder.tryLock(Duration.ZERO, null));
        CountDownLatch waiting = new CountDownLatch(1);
        AtomicReference<Throwable> outcome = new AtomicReference<>();
        AtomicReference<Boolean> heldAfter = new AtomicReference<>();
        Thread thread = Threads.factory("interrupted-waiter").newThread(() -> {
            waiting.countDown();
            try {
                waiter.lockInterruptibly();
            } catch (Throwable t) {
                outcome.set(t);
            }
            heldAfter.set(waiter.isHeldByCurrentThread());
        });
        thread.start();
        assertTrue(waiting.await(BOUNDED.toSeconds(), TimeUnit.SECONDS));
        thread.interrupt();
        thread.join(BOUNDED.toMillis());
        assertFalse(thread.isAlive(), "the waiter ignored its interrupt");
        assertTrue(outcome.get() instanceof InterruptedException, "expected InterruptedException, got " + outcome.get());
        assertFalse(heldAfter.get(), "an interrupted waiter ended up holding the lock");
        holder.unlock();
    }

    // ---- bad input ---------------------------------------------------------------------------

    @Test
    void badInputFailsAtTheCallNamingTheArgument() {
        Locks client = open();
        DistLock lock = client.get("bad-input");
        assertMessage(NullPointerException.class, "name", () -> client.get(null));
        assertMessage(IllegalArgumentException.class, "name", () -> client.get("  "));
        assertMessage(NullPointerException.class, "wait", () -> lock.tryLock(null, null));
        assertMessage(IllegalArgumentException.class, "wait", () -> lock.tryLock(Duration.ofMillis(-1), null));
        assertMessage(IllegalArgumentException.class, "lease", () -> lock.tryLock(Duration.ZERO, Duration.ZERO));
        assertMessage(IllegalArgumentException.class, "lease", () -> lock.tryLock(Duration.ZERO, Duration.ofSeconds(-1)));
        assertMessage(IllegalArgumentException.class, "lease", () -> lock.lock(Duration.ZERO));
        assertMessage(NullPointerException.class, "unit", () -> lock.tryLock(1, null));
        List<RedisClient> clients = nodes.stream().map(RedisNode::newClient).toList();
        opened.addAll(clients);
        assertMessage(NullPointerException.class, stage.multiNode() ? "nodes" : "redis",
                () -> stage.open(stage.multiNode() ? null : Collections.singletonList(null), LockOptions.defaults()));
        assertMessage(NullPointerException.class, "options", () -> stage.open(clients, null));
        if (claims(Guarantee.REENTRANT)) {
            // Redisson's layout from stage 3 on: braces that are not a whole hash tag would split key and channel.
            assertMessage(IllegalArgumentException.class, "name", () -> client.get("orders{eu"));
        }
        assertMessage(IllegalArgumentException.class, "spinInterval",
                () -> LockOptions.defaults().withSpinInterval(Duration.ofNanos(500_000)));
        client.close();
        assertMessage(IllegalStateException.class, "closed", () -> client.get("bad-input"));
    }

    @Test
    void absurdLeasesAreRefusedAndNoLockKeyLivesWithoutATtl() throws InterruptedException {
        DistLock lock = open().get("absurd");
        assertMessage(IllegalArgumentException.class, "lease", () -> lock.lock(Duration.ofMillis(Long.MAX_VALUE)));
        assertMessage(IllegalArgumentException.class, "lease", () -> lock.tryLock(Duration.ZERO, Duration.ofDays(366)));
        assertMessage(IllegalArgumentException.class, "lease", () -> lock.tryLock(Duration.ZERO, Duration.ofMillis(9)));
        assertTrue(lock.tryLock(Duration.ZERO, Args.MAX_LEASE), "the longest lease is a lease like any other");
        for (RedisNode node : nodes) {
            try (Jedis admin = node.admin()) {
                // The other tests' keys too: they run beside this one. PTTL -1 is a key without a TTL; -2, one gone since KEYS.
                for (String key : admin.keys("*")) {
                    assertTrue(key.startsWith(Stage.TOKEN_COUNTERS) || admin.pttl(key) != -1,
                            "key " + key + " has no TTL on " + node.label());
                }
            }
        }
        lock.unlock();
    }

    @Test
    void aClosedClientsLocksThrowAndSendNothing() throws Exception {
        // Nodes of its own, so no other client's renewals are counted.
        List<RedisNode> own = startNodes();
        LockOptions options = Stage.leaseOptions(Duration.ofSeconds(5));
        Locks client = open(own, options);
        DistLock lock = client.get("closed");
        DistLock held = client.get("closed-held");
        assertTrue(held.tryLock(Duration.ZERO, null));
        client.close();
        long before = commandsRun(own);
        assertMessage(IllegalStateException.class, "closed", lock::lock);
        assertMessage(IllegalStateException.class, "closed", () -> lock.tryLock(Duration.ofSeconds(1), null));
        assertMessage(IllegalStateException.class, "closed", lock::tryLock);
        assertMessage(IllegalStateException.class, "closed", held::unlock);
        assertEquals(before, commandsRun(own), "a closed client's lock calls reached Redis");
        assertTrue(open(own, options).get("closed").tryLock(Duration.ZERO, null),
                "a closed client's lock call took the lock");
    }

    /** Alone: the client must be closed within the link's 300 ms delay of the script's reply. */
    @Test
    @PlaysAlone
    void aClientClosedWhileItsLockScriptRunsGivesTheGrantBack() throws Exception {
        assumeTrue(claims(Guarantee.LEASE_RENEWAL), "before the watchdog, a grant simply runs out with its lease");
        try (ScenarioContext context = new ScenarioContext(stage, fixture)) {
            List<FaultyLink> links = context.links();
            // A slow link holds the reply back while the test closes the client; the 30 s lease cannot free the key.
            LockOptions options = LockOptions.defaults().withNodeTimeout(Duration.ofSeconds(2));
            Locks locks = context.actorBehind("A", links, options).locks();
            DistLock lock = locks.get("closed-midway");
            // Connections open before the link slows down: their handshakes are not the point.
            DistLock warmUp = locks.get("warm-up");
            assertTrue(warmUp.tryLock(Duration.ZERO, null));
            warmUp.unlock();
            // The watching connections too: a new one per look (a TLS handshake each) would look too late.
            List<Jedis> watches = context.nodes().stream().map(RedisNode::admin).toList();
            links.forEach(link -> link.delay(Duration.ofMillis(300)));
            try (LockThread thread = new LockThread("closed-midway")) {
                Future<Boolean> taking = thread.submit(() -> lock.tryLock(Duration.ZERO, null));
                Await.until("the lock script ran on every node", BOUNDED,
                        () -> watches.stream().allMatch(watch -> watch.exists("closed-midway")));
                locks.close();
                Exception thrown = assertThrows(Exception.class, () -> LockThread.get(taking, BOUNDED));
                assertTrue(thrown instanceof IllegalStateException, "expected IllegalStateException, got " + thrown);
                Await.until("the grant is given back", BOUNDED,
                        () -> watches.stream().noneMatch(watch -> watch.exists("closed-midway")));
            } finally {
                watches.forEach(Jedis::close);
            }
        }
    }

    /** Commands {@code on} ran so far, but those of the admin connection that asks (INFO, and AUTH, CLIENT SETINFO, HELLO). */
    private static long commandsRun(List<RedisNode> on) {
        long total = 0;
        for (RedisNode node : on) {
            try (Jedis admin = node.admin()) {
                for (String line : admin.info("commandstats").split("\r?\n")) {
                    int calls = line.indexOf("calls=");
                    if (line.startsWith("cmdstat_") && !line.matches("cmdstat_(info|client|hello|auth)[:|].*")) {
                        total += Long.parseLong(line.substring(calls + 6, line.indexOf(',', calls)));
                    }
                }
            }
        }
        return total;
    }

    @Test
    void aWaitTooLongToCountIsForever() throws Exception {
        DistLock holder = open().get("forever");
        DistLock waiter = open().get("forever");
        try (LockThread thread = new LockThread("forever")) {
            for (Duration forever : List.of(Duration.ofNanos(Long.MAX_VALUE), Duration.ofDays(365 * 300))) {
                assertTrue(holder.tryLock(Duration.ZERO, null));
                CountDownLatch started = new CountDownLatch(1);
                Future<Boolean> waited = thread.submit(() -> {
                    started.countDown();
                    return waiter.tryLock(forever, null);
                });
                assertTrue(started.await(BOUNDED.toMillis(), TimeUnit.MILLISECONDS));
                Await.until("the wait blocks or ends", BOUNDED, () -> waited.isDone()
                        || thread.thread().getState() == Thread.State.TIMED_WAITING
                        || thread.thread().getState() == Thread.State.WAITING);
                assertFalse(waited.isDone(), "a wait of " + forever + " gave up at once");
                holder.unlock();
                assertTrue(LockThread.get(waited, BOUNDED), "the waiter did not get the released lock");
                thread.run(waiter::unlock);
            }
        }
    }

    @Test
    void aFailedLockKeepsTheCallersInterrupt() {
        List<RedisNode> doomed = startNodes();
        Locks locks = open(doomed, LockOptions.defaults());
        doomed.forEach(RedisNode::kill);
        Thread.currentThread().interrupt();
        try {
            assertThrows(RedisUnreachableException.class, () -> locks.get("interrupted-and-down").lock());
        } finally {
            assertTrue(Thread.interrupted(), "lock() swallowed the caller's interrupt when it failed");
        }
    }

    @Test
    void theSameNodeClientTwiceIsRefused() {
        assumeTrue(stage.multiNode(), "a single-node stage takes one client");
        RedisClient once = nodes.get(0).newClient();
        opened.add(once);
        List<RedisClient> twice = new ArrayList<>(Collections.nCopies(2, once));
        for (int i = 2; i < nodes.size(); i++) {
            RedisClient other = nodes.get(i).newClient();
            opened.add(other);
            twice.add(other);
        }
        assertMessage(IllegalArgumentException.class, "nodes", () -> stage.open(twice, LockOptions.defaults()));
    }

    private static void assertMessage(Class<? extends Throwable> type, String word, ThrowingCall call) {
        Throwable thrown = assertThrows(type, call::run);
        assertTrue(thrown.getMessage() != null && thrown.getMessage().contains(word),
                "the message should name '" + word + "': " + thrown.getMessage());
    }

    @FunctionalInterface
    private interface ThrowingCall {
        void run() throws Throwable;
    }

    // ---- faults ------------------------------------------------------------------------------

    @Test
    void redisDownFailsLockWithinBoundedTime() {
        List<RedisNode> doomed = startNodes();
        Locks locks = open(doomed, LockOptions.defaults());
        doomed.forEach(RedisNode::kill);
        RedisUnreachableException e = assertTimeoutPreemptively(BOUNDED, () -> assertThrows(RedisUnreachableException.class,
                () -> locks.get("down").lock()));
        assertTrue(e.getMessage().contains("down"), "the message should name the lock: " + e.getMessage());
    }

    @Test
    void redisStalledFailsLockWithinBoundedTime() {
        List<RedisNode> stalled = startNodes();
        Locks locks = open(stalled, LockOptions.defaults());
        stalled.forEach(RedisNode::pause);
        try {
            assertTimeoutPreemptively(BOUNDED, () -> assertThrows(RedisUnreachableException.class,
                    () -> locks.get("stalled").lock()));
        } finally {
            stalled.forEach(RedisNode::resume);
        }
    }

    @Test
    void aStoppedHolderLosesTheLockWhenItsLeaseRunsOut() throws Exception {
        try (ScenarioContext context = new ScenarioContext(stage, fixture)) {
            LockOptions options = Stage.leaseOptions(Duration.ofMillis(500));
            ClientProcess holder = context.process("A", options);
            Actor other = context.actor("B", options);
            holder.lock("stopped", null, BOUNDED);
            holder.pause();
            try {
                assertTrue(other.tryLock("stopped", Duration.ofSeconds(3), null),
                        "the lease of a stopped holder never ran out");
            } finally {
                holder.resume();
            }
            // Woken up, the holder still believes it holds the lock. Only an owner check stops its unlock.
            assertEquals(!claims(Guarantee.OWNER_ONLY_RELEASE), holder.unlock("stopped"),
                    "a resumed holder's stale unlock");
        }
    }

    @Test
    void nothingListeningFailsLockWithinBoundedTime() {
        List<HostAndPort> nowhere = Collections.nCopies(stage.nodeCount(), new HostAndPort("127.0.0.1", 1));
        Locks locks = openAt(nowhere, LockOptions.defaults());
        assertTimeoutPreemptively(BOUNDED, () -> assertThrows(RedisUnreachableException.class,
                () -> locks.get("nowhere").tryLock(Duration.ofSeconds(30), null)));
    }
}
