package dev.lockstep.testkit.model;

import dev.lockstep.testkit.history.History;
import dev.lockstep.testkit.history.History.Kind;
import dev.lockstep.testkit.history.Timeline;
import java.util.ArrayList;
import java.util.List;

/** What a run did: each step and its outcome as a line of text, and the history its timeline is drawn from. */
final class RunLog {

    private final History history;
    private final List<String> lines = new ArrayList<>();

    /** A log that records events in {@code history}. */
    RunLog(History history) {
        this.history = history;
    }

    /** Records {@code detail} as {@code actor}'s event in the history, and as a line stamped with the run's time. */
    void note(String actor, Kind kind, String detail) {
        history.record(actor, kind, detail);
        lines.add(String.format("%6d ms  %s", history.now() / 1_000_000, detail));
    }

    /** Adds a line that is no event of anyone's. */
    void line(String line) {
        lines.add(line);
    }

    /** The history the timeline is drawn from. */
    History history() {
        return history;
    }

    /** The lines, then the timeline of clients and Redis. */
    String timeline() {
        return String.join("\n", lines) + "\n\n" + Timeline.render(history);
    }

    /** Who a step's call is recorded as: client letter and thread number, e.g. {@code A/1}, {@code A/h1}. */
    static String actor(Step step) {
        String owner = step.owner();
        return owner.charAt(0) + "/" + owner.substring(1);
    }
}
