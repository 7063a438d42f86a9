package dev.lockstep.testkit.scenario;

import dev.lockstep.testkit.client.Threads;
import dev.lockstep.testkit.fixture.RedisFixture;
import dev.lockstep.testkit.history.History;
import dev.lockstep.testkit.history.Timeline;
import dev.lockstep.testkit.scenario.Scenario.Verdict;
import dev.lockstep.testkit.stage.Stage;

/**
 * One scenario played on one stage, with the scoreboard cell it earns.
 *
 * @param stage    the stage
 * @param scenario the scenario
 * @param claimed  whether the stage claims the scenario's guarantee
 * @param verdict  the checker's judgement, or null when the run itself broke
 * @param history  what happened
 * @param error    why the run broke, or null
 */
public record Outcome(Stage stage, Scenario scenario, boolean claimed, Verdict verdict, History history,
                      Throwable error) {

    /** How many times a play that could not set up in time ({@link TooSlowToPlay}) is played on fresh servers. */
    public static final int PLAYS = 3;

    /** A scoreboard cell. */
    public enum Cell {
        /** Claimed, and the guarantee held. */
        PREVENTED("prevented"),
        /** Not claimed, and the failure happened as the source articles (docs/sources.md) say. */
        REPRODUCED("reproduced"),
        /** Anything else: a claim broken, a failure that did not show, or a run that broke. */
        FAILED("FAILED"),
        /** The machine was too slow to set the story up, {@link #PLAYS} times: no verdict on the lock. */
        NOT_PLAYED("not played: too slow"),
        /** The story needs something the stage does not have ({@link Scenario#needs()}). */
        NOT_APPLICABLE("n/a");

        private final String text;

        Cell(String text) {
            this.text = text;
        }

        @Override
        public String toString() {
            return text;
        }
    }

    /** The cell this outcome earns. */
    public Cell cell() {
        if (!scenario.playsOn(stage)) {
            return Cell.NOT_APPLICABLE;
        }
        if (error instanceof TooSlowToPlay) {
            return Cell.NOT_PLAYED;
        }
        if (error != null) {
            return Cell.FAILED;
        }
        if (claimed) {
            return verdict.violated() ? Cell.FAILED : Cell.PREVENTED;
        }
        return verdict.violated() ? Cell.REPRODUCED : Cell.FAILED;
    }

    /** The story, the timeline and the judgement, as a learner reads them. */
    public String report() {
        return report(false);
    }

    /** {@link #report()}, with the fixture's own key events in the timeline when {@code fixture}. */
    public String report(boolean fixture) {
        StringBuilder out = new StringBuilder();
        if (cell() == Cell.NOT_APPLICABLE) {
            return stage.name() + " / " + scenario.id() + ": n/a (needs " + scenario.needsOn(stage) + ")\n";
        }
        out.append(stage.name()).append(" / ").append(scenario.id()).append(": ").append(cell())
                .append(claimed ? " (claims " : " (does not claim ").append(scenario.guarantee()).append(")\n");
        out.append(scenario.story()).append("\n\n");
        out.append(Timeline.render(history, false, fixture)).append('\n');
        return out.append(judgement()).append('\n').toString();
    }

    /** The report's last line: the verdict and why, or why there is none. */
    public String judgement() {
        if (error instanceof TooSlowToPlay) {
            return "Not played: " + error.getMessage() + ", in each of " + PLAYS
                    + " plays on fresh servers; this machine was too slow to set the story up";
        }
        if (error != null) {
            return "The run broke: " + error;
        }
        return (verdict.violated() ? "VIOLATION: " : "OK: ") + verdict.explanation();
    }

    /**
     * Plays {@code scenario} on {@code stage} with fresh nodes from {@code fixture}, up to
     * {@link #PLAYS} times in all: again when a play could not set its story up in time, and, for a
     * scenario judged by a measure ({@link Scenario#measured()}), when the measure disagrees with the
     * claim, since a machine busy with other work skews it. The last play stands.
     */
    public static Outcome run(Stage stage, Scenario scenario, RedisFixture fixture) {
        Outcome outcome = playOnce(stage, scenario, fixture);
        for (int play = 2; play <= PLAYS && worthReplaying(outcome); play++) {
            outcome = playOnce(stage, scenario, fixture);
        }
        return outcome;
    }

    private static boolean worthReplaying(Outcome outcome) {
        return outcome.cell() == Cell.NOT_PLAYED
                || (outcome.scenario().measured() && outcome.cell() == Cell.FAILED && outcome.error() == null);
    }

    private static Outcome playOnce(Stage stage, Scenario scenario, RedisFixture fixture) {
        if (!scenario.playsOn(stage)) {
            return new Outcome(stage, scenario, false, null, new History(), null);
        }
        boolean claimed = stage.claims().contains(scenario.guarantee());
        try (ScenarioContext context = new ScenarioContext(stage, fixture)) {
            try {
                Verdict verdict = Threads.onClientThread("lockstep-scenario-main", () -> scenario.run(context));
                return new Outcome(stage, scenario, claimed, verdict, context.history(), null);
            } catch (Exception e) {
                return new Outcome(stage, scenario, claimed, null, context.history(), e);
            }
        }
    }
}
