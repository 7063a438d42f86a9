package dev.lockstep.testkit.history;

import dev.lockstep.testkit.history.History.Event;
import dev.lockstep.testkit.history.History.Kind;
import dev.lockstep.testkit.history.KeyOwnership.Deadline;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The rows of a text timeline: each recorded event (and each lease deadline) put in time order at the
 * moment it is drawn, then either shown on a row of its own or folded silently into the nearest row.
 */
final class TimelineRows {

    /**
     * One row: the event it shows (or node events of one kind at about the same time), after the
     * silent events since the previous row, which change only what the columns show.
     */
    record Row(Event shown, List<Event> events) {
    }

    private final KeyOwnership ownership;
    private final Map<Event, Long> drawn = new HashMap<>();
    private final List<Row> rows;

    /** The rows of {@code history}, its keys read by {@code ownership}; with {@code fixture}, the fixture's too. */
    TimelineRows(History history, KeyOwnership ownership, boolean fixture) {
        this.ownership = ownership;
        List<Event> events = new ArrayList<>(history.events());
        for (Deadline deadline : ownership.deadlines()) {
            events.add(deadline.event());
        }
        placeNodeEvents(events);
        events.sort((x, y) -> Long.compare(drawnAt(x), drawnAt(y)));
        this.rows = rows(events, fixture);
    }

    List<Row> rows() {
        return rows;
    }

    /** When {@code e} is drawn: when it happened, unless it is a node's event moved to the row that explains it. */
    long drawnAt(Event e) {
        return drawn.getOrDefault(e, e.at());
    }

    /**
     * Moves each node's key taken onto the row of the acquisition that took it, and that node's
     * earlier events (the previous owner's expiry or deletion) before it: they happened first, though
     * the watch may hear of them after the client hears its reply.
     */
    private void placeNodeEvents(List<Event> events) {
        Map<String, Long> next = new HashMap<>();
        for (int i = events.size() - 1; i >= 0; i--) {
            Event e = events.get(i);
            String node = KeyOwnership.node(e);
            if (node != null) {
                long at = Math.min(e.kind() == Kind.HELD ? ownership.drawnAt(e) : e.at(),
                        next.getOrDefault(node, Long.MAX_VALUE) - 1);
                drawn.put(e, at);
                next.put(node, at);
            }
        }
    }

    /**
     * The rows to draw: node events of one kind at about one instant merged, and each silent event
     * folded into the row nearest in time, to change what the columns show from that row on.
     */
    private List<Row> rows(List<Event> events, boolean fixture) {
        Predicate<Event> silent = e -> e.kind() == Kind.HELD || e.kind() == Kind.DOWN
                || e.kind() == Kind.FIXTURE && !fixture;
        List<Row> rows = new ArrayList<>();
        List<Integer> rowOfShown = new ArrayList<>();
        for (List<Event> run : ownership.atOneInstant(events.stream().filter(silent.negate()).toList(),
                this::drawnAt, true)) {
            run.forEach(e -> rowOfShown.add(rows.size()));
            rows.add(new Row(run.get(0), run));
        }
        List<Event> silentEvents = new ArrayList<>();
        List<Integer> before = new ArrayList<>();
        int shown = 0;
        for (Event e : events) {
            if (silent.test(e)) {
                silentEvents.add(e);
                before.add(shown == 0 ? 0 : rowOfShown.get(shown - 1) + 1);
            } else {
                shown++;
            }
        }
        for (int i = silentEvents.size() - 1; i >= 0; i--) {
            Event e = silentEvents.get(i);
            int next = before.get(i);
            long at = drawnAt(e);
            boolean toNext = next < rows.size() && (next == 0
                    || drawnAt(rows.get(next).shown()) - at <= at - drawnAt(rows.get(next - 1).shown()));
            if (toNext) {
                rows.get(next).events().add(0, e);
            } else if (next > 0) {
                Row previous = rows.get(next - 1);
                int after = previous.events().size();
                while (after > 0 && drawnAt(previous.events().get(after - 1)) > at) {
                    after--;
                }
                previous.events().add(after, e);
            }
        }
        return rows;
    }
}
