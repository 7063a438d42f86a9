package dev.lockstep.testkit.model;

import java.util.List;

/** A fixed history the model contract replays as a regression test: a known one or a guard. */
public interface ReplayedHistory {

    /** The history's name, as a failure reports it. */
    String name();

    /** Whether the history applies to a lock set up as {@code setup}: it may need a read side, or several names. */
    boolean appliesTo(ModelSetup setup);

    /** The steps, played as they are. */
    List<Step> steps();
}
