package dev.lockstep.testkit.contract;

import dev.lockstep.Guarantee;
import dev.lockstep.LockOptions;
import dev.lockstep.Locks;
import dev.lockstep.testkit.client.Threads;
import dev.lockstep.testkit.fixture.RedisBinary;
import dev.lockstep.testkit.fixture.RedisFixture;
import dev.lockstep.testkit.fixture.RedisNode;
import dev.lockstep.testkit.fixture.ServerSecurity;
import dev.lockstep.testkit.scenario.Catalog;
import dev.lockstep.testkit.scenario.Scenario;
import dev.lockstep.testkit.scenario.Scoreboard;
import dev.lockstep.testkit.stage.Stage;
import dev.lockstep.testkit.stage.Stages;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import redis.clients.jedis.RedisClient;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The contract every stage runs. A stage's test class only names the stage and its claims:
 *
 * <pre>{@code @StageSpec(name = "v1-setnx", claims = LIVENESS_AFTER_CRASH)
 * class SetnxLocksTest extends LockContract {}}</pre>
 *
 * <p>Every scenario runs on the stage: a claimed guarantee must hold; an unclaimed one must be
 * reproduced, its timeline printed. The tests run side by side, since they mostly wait; a timed
 * scenario, and a test that disturbs the whole JVM, run alone once the others are done ({@link
 * TimingSlots}). With {@code -Dlockstep.strict=true} every unclaimed scenario
 * fails, with its timeline as the message. The scoreboard is printed after the class and written
 * to {@code target/lockstep-scoreboard.md}. After each test, {@link LeakCheck} closes the clients
 * it opened and fails it if it left a thread running.
 *
 * <p>The tests come in parts by concern, each an interface of default test methods on what this
 * class provides ({@link StageUnderTest}): {@link ScenarioPlays}, {@link BasicBehaviour}, {@link
 * BadInput}, {@link ClosedClients}, {@link ServerFaults}, {@link CallFaults}, {@link HandedOffHolds} and
 * {@link HoldBeliefs}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Execution(ExecutionMode.CONCURRENT)
@ExtendWith({TimingSlots.class, LeakCheck.class})
public abstract class LockContract
        implements ScenarioPlays, BasicBehaviour, BadInput, ClosedClients, ServerFaults, CallFaults, HandedOffHolds,
        HoldBeliefs {

    private final Scoreboard scoreboard = new Scoreboard();
    private StageSpec spec;
    private Stage stage;
    private ServerSecurity security = ServerSecurity.NONE;
    private RedisFixture fixture;
    private List<RedisNode> nodes;
    /** What was opened outside any test, closed after the class; tests running concurrently may add to it at once. */
    private final List<AutoCloseable> opened = Collections.synchronizedList(new ArrayList<>());

    @BeforeAll
    void startRedis() {
        spec = getClass().getAnnotation(StageSpec.class);
        if (spec == null) {
            throw new IllegalStateException(getClass().getName() + " needs a @StageSpec");
        }
        stage = Stages.named(spec.name());
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

    /** Prints the scoreboard; then no thread may be left that {@link LeakCheck} could not pin on one test. */
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
        assertNoLockstepThreadsLeft(getClass().getSimpleName());
    }

    /** Every scenario, client and fault closed what it started: no testkit or stage thread may outlive them. */
    private static void assertNoLockstepThreadsLeft(String testClass) throws InterruptedException {
        long deadline = System.nanoTime() + BOUNDED.toNanos();
        List<String> left = Threads.named("lockstep-");
        while (!left.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(50);
            left = Threads.named("lockstep-");
        }
        assertTrue(left.isEmpty(), testClass + " left threads running after its tests: " + left);
    }

    @Override
    public Stage stage() {
        return stage;
    }

    @Override
    public Set<Guarantee> claimed() {
        return spec.claims().length == 0 ? EnumSet.noneOf(Guarantee.class) : EnumSet.copyOf(List.of(spec.claims()));
    }

    @Override
    public RedisFixture fixture() {
        return fixture;
    }

    @Override
    public ServerSecurity security() {
        return security;
    }

    @Override
    public List<RedisNode> nodes() {
        return nodes;
    }

    @Override
    public Scoreboard scoreboard() {
        return scoreboard;
    }

    @Override
    public List<RedisNode> startNodes() {
        List<RedisNode> started = new ArrayList<>();
        for (int i = 0; i < stage.nodeCount(); i++) {
            started.add(fixture.start());
        }
        return started;
    }

    @Override
    public Locks openOn(List<RedisClient> clients, LockOptions options) {
        clients.forEach(this::closedAfterTest);
        return closedAfterTest(stage.open(clients, options));
    }

    @Override
    public <T extends AutoCloseable> T closedAfterTest(T resource) {
        if (!LeakCheck.closeAfterTest(resource)) {
            opened.add(0, resource);
        }
        return resource;
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
}
