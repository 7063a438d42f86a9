package dev.lockstep.testkit.contract;

import dev.lockstep.Locks;
import dev.lockstep.testkit.fixture.RedisFixture;
import dev.lockstep.testkit.stage.Stage;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

/**
 * A contract whose stage's test class only names the stage and its entry point (no claims: they
 * are the stage's own), run on the servers {@code -Dlockstep.redis} chooses: the ground of
 * {@link ModelContract} and {@link ScheduleContract}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class NamedStageContract {

    private final Stage stage;
    private RedisFixture fixture;

    /** The contract for stage {@code name}, whose entry point is {@code locks}. */
    NamedStageContract(String name, Class<? extends Locks> locks) {
        this.stage = new Stage(name, locks);
    }

    @BeforeAll
    void startFixture() {
        fixture = RedisFixture.fromSystemProperty();
    }

    @AfterAll
    void stopFixture() {
        fixture.close();
    }

    /** The stage under test. */
    final Stage stage() {
        return stage;
    }

    /** Where the class's servers come from. */
    final RedisFixture fixture() {
        return fixture;
    }
}
