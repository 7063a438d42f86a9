package dev.lockstep.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockstep.Guarantee;
import dev.lockstep.testkit.fixture.RedisFixture;
import dev.lockstep.testkit.scenario.FailoverWithReplicaSync;
import dev.lockstep.testkit.scenario.Outcome;
import dev.lockstep.testkit.scenario.Outcome.Cell;
import dev.lockstep.testkit.scenario.Scenario;
import dev.lockstep.testkit.scenario.ScenarioContext;
import dev.lockstep.testkit.scenario.TooSlowToPlay;
import dev.lockstep.testkit.stage.Stage;
import dev.lockstep.testkit.stage.Stages;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A play the machine was too slow to set up is replayed, then told apart from a failure of the lock,
 * which stays FAILED; a measure that misses its limit is played again, a safety verdict never.
 */
class TooSlowToPlayTest {

    private static RedisFixture fixture;
    private static Stage stage;

    @BeforeAll
    static void start() {
        fixture = RedisFixture.fromSystemProperty();
        stage = Stages.named("v5-pubsub-retry");
    }

    @AfterAll
    static void stop() {
        fixture.close();
    }

    @Test
    void aReplicaTooSlowForTheSyncIsNotPlayedNotFailed() {
        // 500 ms each way: the replica's acknowledgement cannot come within the 800 ms the sync allows.
        Outcome outcome = Outcome.run(stage, FailoverWithReplicaSync.lagging(500), fixture);
        assertEquals(Cell.NOT_PLAYED, outcome.cell(), outcome::report);
        assertTrue(outcome.report().contains("did not acknowledge within 800 ms"), outcome::report);
    }

    @Test
    void aPlayThatSetsUpOnItsSecondTryIsJudged() {
        AtomicInteger plays = new AtomicInteger();
        Outcome outcome = Outcome.run(stage, scenario(() -> {
            if (plays.incrementAndGet() == 1) {
                throw new TooSlowToPlay("A could not take a free lock");
            }
            return Scenario.Verdict.held("played");
        }), fixture);
        assertEquals(2, plays.get());
        assertEquals(Cell.PREVENTED, outcome.cell(), outcome::report);
    }

    @Test
    void aMeasureThatMissesItsLimitOnceIsPlayedAgainButASafetyVerdictIsNot() {
        AtomicInteger measuredPlays = new AtomicInteger();
        Outcome measured = Outcome.run(stage, scenario(true, () -> measuredPlays.incrementAndGet() == 1
                ? Scenario.Verdict.violated("wake-up lag 41 ms (limit 30 ms)") : Scenario.Verdict.held("lag 3 ms")), fixture);
        assertEquals(2, measuredPlays.get());
        assertEquals(Cell.PREVENTED, measured.cell(), measured::report);
        AtomicInteger safetyPlays = new AtomicInteger();
        Outcome safety = Outcome.run(stage, scenario(() -> safetyPlays.incrementAndGet() == 1
                ? Scenario.Verdict.violated("B entered beside A") : Scenario.Verdict.held("never")), fixture);
        assertEquals(1, safetyPlays.get(), "a safety violation was played again");
        assertEquals(Cell.FAILED, safety.cell());
    }

    @Test
    void aBrokenClaimAndABrokenRunStayFailed() {
        assertEquals(Cell.FAILED, Outcome.run(stage, scenario(() -> Scenario.Verdict.violated("B entered beside A")),
                fixture).cell());
        assertEquals(Cell.FAILED, Outcome.run(stage, scenario(() -> {
            throw new IllegalStateException("the lock threw");
        }), fixture).cell());
    }

    /** A safety scenario on a guarantee stage 5 claims, whose play is {@code play}. */
    private static Scenario scenario(Play play) {
        return scenario(false, play);
    }

    /** A scenario on a guarantee stage 5 claims, judged by a measure when {@code measured}, whose play is {@code play}. */
    private static Scenario scenario(boolean measured, Play play) {
        assertTrue(stage.claims().contains(Guarantee.LIVENESS_AFTER_CRASH));
        return new Scenario("made-up", Guarantee.LIVENESS_AFTER_CRASH, "a story for this test") {
            @Override
            public boolean measured() {
                return measured;
            }

            @Override
            public Verdict run(ScenarioContext context) {
                return play.run();
            }
        };
    }

    /** One play's verdict. */
    private interface Play {
        Scenario.Verdict run();
    }
}
