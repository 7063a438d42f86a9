package dev.lockstep.testkit.model;

import dev.lockstep.testkit.fixture.RedisFixture;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Runs seeded histories on one stage and, when one breaks a rule, shrinks it: drops chunks of
 * steps, then single steps, as long as the shorter history still breaks the same rule, and replays
 * each candidate from scratch on fresh nodes. The seed and step count replay the original; the
 * shrunk step list is printed, since it is the regression test.
 */
public final class ModelChecker {

    /** Replays spent on shrinking one failure at most: each is a full run on fresh nodes. */
    private static final int SHRINK_REPLAYS = 40;

    private final ModelSetup setup;
    private final RedisFixture fixture;
    private final Consumer<String> progress;

    /** A checker of {@code setup}'s stage on nodes of {@code fixture}, telling {@code progress} what it does. */
    public ModelChecker(ModelSetup setup, RedisFixture fixture, Consumer<String> progress) {
        this.setup = setup;
        this.fixture = fixture;
        this.progress = progress;
    }

    /**
     * A failure, found and shrunk.
     *
     * @param seed     the seed whose history broke
     * @param steps    how many steps were drawn from it
     * @param original the run of the drawn history
     * @param shrunk   the run of the shortest history found that breaks the same rule
     */
    public record Failure(long seed, int steps, ModelRun.Result original, ModelRun.Result shrunk) {

        /** The report: rule, seed, how to replay, the shrunk steps and their timeline. */
        public String report(String stage) {
            Violation violation = shrunk.violation().orElseThrow();
            StringBuilder out = new StringBuilder();
            out.append(stage).append(" broke ").append(violation.rule()).append(" with seed ").append(seed)
                    .append(" (").append(steps).append(" steps; replay: -Dlockstep.seed=").append(seed)
                    .append(", or lab explore-model --stages ").append(stage).append(" --replay ").append(seed)
                    .append(" --steps ").append(steps)
                    .append(")\n").append(violation.detail()).append("\n\nshrunk from ").append(original.played())
                    .append(" to ").append(shrunk.steps().size()).append(" steps:\n");
            for (int i = 0; i < shrunk.steps().size(); i++) {
                out.append(String.format("  %2d. %s%n", i + 1, shrunk.steps().get(i)));
            }
            out.append("\n").append(shrunk.timeline());
            return out.toString();
        }
    }

    /** The history {@code seed} draws, {@code steps} long. */
    public List<Step> history(long seed, int steps) {
        return StepDraw.draw(setup, seed, steps);
    }

    /** Plays {@code seed}'s history; a failure comes back shrunk. */
    public Optional<Failure> check(long seed, int steps) {
        ModelRun.Result result = ModelRun.play(setup, fixture, history(seed, steps));
        if (result.violation().isEmpty()) {
            progress.accept(setup.stage() + " seed " + seed + ": " + steps + " steps, every check held");
            return Optional.empty();
        }
        progress.accept(setup.stage() + " seed " + seed + ": " + result.violation().get() + " at step "
                + result.played() + "; shrinking");
        return Optional.of(new Failure(seed, steps, result, shrink(result)));
    }

    /** The shortest history found that breaks the same rule as {@code failing}. */
    ModelRun.Result shrink(ModelRun.Result failing) {
        String rule = failing.violation().orElseThrow().rule();
        // Steps after the violation played no part in it.
        List<Step> steps = new ArrayList<>(failing.steps().subList(0, failing.played()));
        ModelRun.Result best = new ModelRun.Result(List.copyOf(steps), failing.played(), failing.violation(),
                failing.timeline());
        int replays = 0;
        for (int chunk = Math.max(1, steps.size() / 2); chunk >= 1 && replays < SHRINK_REPLAYS; chunk /= 2) {
            for (int from = 0; from < steps.size() && replays < SHRINK_REPLAYS; ) {
                List<Step> candidate = new ArrayList<>(steps.subList(0, from));
                candidate.addAll(steps.subList(Math.min(steps.size(), from + chunk), steps.size()));
                if (candidate.isEmpty()) {
                    from += chunk;
                    continue;
                }
                replays++;
                ModelRun.Result replay = ModelRun.play(setup, fixture, candidate);
                if (replay.violation().map(v -> v.rule().equals(rule)).orElse(false)) {
                    steps = new ArrayList<>(candidate.subList(0, replay.played()));
                    best = new ModelRun.Result(steps, replay.played(), replay.violation(), replay.timeline());
                    progress.accept("  shrunk to " + steps.size() + " steps");
                } else {
                    from += chunk;
                }
            }
        }
        return best;
    }
}
