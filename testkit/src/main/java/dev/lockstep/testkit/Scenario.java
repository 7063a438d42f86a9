package dev.lockstep.testkit;

import dev.lockstep.Guarantee;

/**
 * A documented failure, run on real Redis against one stage and judged from its recorded
 * {@link History}. A stage that claims {@link #guarantee()} must prevent it; any other stage
 * must reproduce it.
 */
public interface Scenario {

    /** The id used in the scoreboard and on the command line, e.g. {@code foreign-unlock}. */
    String id();

    /** The guarantee this scenario tries to break. */
    Guarantee guarantee();

    /** The story in one or two sentences: who does what, and what goes wrong without the guarantee. */
    String story();

    /** Plays the story against {@code context.stage()} and judges the history it recorded. */
    Verdict run(ScenarioContext context) throws Exception;

    /**
     * The judgement of one run.
     *
     * @param violated    whether the guarantee was broken
     * @param explanation one sentence a learner can read under the timeline
     */
    record Verdict(boolean violated, String explanation) {

        /** The guarantee was broken: {@code explanation} says how. */
        public static Verdict violated(String explanation) {
            return new Verdict(true, explanation);
        }

        /** The guarantee held: {@code explanation} says what was checked. */
        public static Verdict held(String explanation) {
            return new Verdict(false, explanation);
        }
    }
}
