package dev.lockstep.testkit.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.lockstep.Guarantee;
import dev.lockstep.testkit.fixture.RedisFixture;
import dev.lockstep.testkit.scenario.Catalog;
import dev.lockstep.testkit.scenario.Outcome;
import dev.lockstep.testkit.scenario.Scenario;
import dev.lockstep.testkit.scenario.Scoreboard;
import dev.lockstep.testkit.stage.Stage;
import dev.lockstep.testkit.stage.Stages;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The contract of an alternative to a Redis lock: the stories that compare it with stage 7
 * ({@link Scenario#BEYOND_REDIS}), each judged as in {@link ScenarioPlays}, and the claims it
 * reports. A test class only names the alternative and its claims:
 *
 * <pre>{@code @StageSpec(name = "zookeeper-lock", claims = {FAILOVER_SAFE, FENCED})
 * class ZooKeeperLocksTest extends BeyondRedisContract {}}</pre>
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Execution(ExecutionMode.CONCURRENT)
public abstract class BeyondRedisContract {

    private final Scoreboard scoreboard = new Scoreboard();
    private StageSpec spec;
    private Stage stage;
    private RedisFixture fixture;

    @BeforeAll
    void nameTheAlternative() {
        spec = getClass().getAnnotation(StageSpec.class);
        if (spec == null) {
            throw new IllegalStateException(getClass().getName() + " needs a @StageSpec");
        }
        stage = Stages.named(spec.name());
        if (!stage.alternative()) {
            throw new IllegalStateException(stage + " is a Redis stage: its test class extends LockContract");
        }
        // The stories start no Redis node for an alternative; the fixture is only the context's to hold.
        fixture = RedisFixture.fromSystemProperty();
    }

    @AfterAll
    void printScoreboard() {
        fixture.close();
        scoreboard.orderColumns(Catalog.all().stream().map(Scenario::id).toList());
        System.out.println("\nlockstep scoreboard\n\n" + scoreboard.markdown());
        scoreboard.write(Path.of("target", "lockstep-scoreboard.md"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("comparisonStories")
    void scenario(String id) {
        Scenario scenario = Catalog.byId(id);
        Outcome outcome = Outcome.run(stage, scenario, fixture);
        scoreboard.add(outcome);
        assumeTrue(scenario.playsOn(stage), () -> id + " needs " + scenario.needsOn(stage));
        ScenarioPlays.check(stage, outcome);
    }

    @Test
    void claimsAreWhatTheStageReports() {
        Set<Guarantee> claimed = spec.claims().length == 0
                ? EnumSet.noneOf(Guarantee.class) : EnumSet.copyOf(List.of(spec.claims()));
        assertEquals(claimed, stage.claims());
    }

    static List<String> comparisonStories() {
        return Catalog.all().stream().map(Scenario::id).filter(Scenario.BEYOND_REDIS::contains).toList();
    }
}
