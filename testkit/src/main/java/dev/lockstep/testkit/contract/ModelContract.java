package dev.lockstep.testkit.contract;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.lockstep.Locks;
import dev.lockstep.testkit.model.GuardHistories;
import dev.lockstep.testkit.model.KnownGroupHistories;
import dev.lockstep.testkit.model.KnownHistories;
import dev.lockstep.testkit.model.ReplayedHistory;
import dev.lockstep.testkit.model.ModelChecker;
import dev.lockstep.testkit.model.ModelRun;
import dev.lockstep.testkit.model.ModelSetup;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The model-based check of "what each client believes it holds is what Redis stores", on fixed
 * seeds: random histories over the whole API and the fault catalogue, checked after every step
 * (see {@link dev.lockstep.testkit.model.ReferenceModel}). A stage's test class only names the stage:
 *
 * <pre>{@code class ModelTest extends ModelContract {
 *     ModelTest() { super("v5-pubsub-retry", PubSubLocks.class); }
 * }}</pre>
 *
 * <p>Each {@link KnownHistories known history} (the shrunk form of a failure found before; over
 * several names, {@link KnownGroupHistories}) and each
 * {@link GuardHistories guard} is replayed as it is, as a regression test. The seeds are fixed so that the suite is repeatable; {@code -Dlockstep.seed=N} plays seed N
 * instead, and {@code lab explore-model} draws fresh seeds for as long as you like. A failure
 * names its seed and shows the shrunk history with its timeline.
 *
 * <p>Each history plays on Redis nodes of its own and mostly waits (leases running out, renewals),
 * so the histories run side by side.
 */
@Execution(ExecutionMode.CONCURRENT)
public abstract class ModelContract extends NamedStageContract {

    /**
     * Seeds of the suite's pass: two short histories keep each stage within about ten seconds. They
     * avoid the defects the known histories already pin down (seeds 1 and 2 meet the fair lock's
     * refused tryLock), so that each failure here is news.
     */
    private static final List<Long> SEEDS = List.of(3L, 11L);
    private static final int STEPS = 20;

    /** The contract for stage {@code name}, whose entry point is {@code locks}. */
    protected ModelContract(String name, Class<? extends Locks> locks) {
        super(name, locks);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(KnownHistories.class)
    void aHistoryThatBrokeOnceKeepsEveryCheck(KnownHistories known) {
        replay(known);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(KnownGroupHistories.class)
    void aGroupHistoryThatBrokeOnceKeepsEveryCheck(KnownGroupHistories known) {
        replay(known);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(GuardHistories.class)
    void aGuardHistoryKeepsEveryCheck(GuardHistories guard) {
        replay(guard);
    }

    /** Plays {@code history} when it applies to this stage; fails with its timeline if it breaks a rule. */
    private void replay(ReplayedHistory history) {
        assumeTrue(history.appliesTo(ModelSetup.of(stage())), "needs a read side, or several names");
        ModelRun.Result result = ModelRun.play(ModelSetup.of(stage()), fixture(), history.steps());
        if (result.violation().isPresent()) {
            fail(stage() + " broke " + result.violation().get() + " in known history " + history.name() + ":\n"
                    + result.timeline());
        }
    }

    @Test
    void whatEachClientBelievesIsWhatRedisStores() {
        ModelChecker checker = new ModelChecker(ModelSetup.of(stage()), fixture(), line -> System.out.println(
                "lockstep model: " + line));
        String fixed = System.getProperty("lockstep.seed", "");
        List<Long> seeds = fixed.isBlank() ? SEEDS : List.of(Long.parseLong(fixed.trim()));
        for (long seed : seeds) {
            Optional<ModelChecker.Failure> failure = checker.check(seed, STEPS);
            if (failure.isPresent()) {
                fail(failure.get().report(stage().name()));
            }
        }
    }
}
