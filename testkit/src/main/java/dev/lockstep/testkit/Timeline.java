package dev.lockstep.testkit;

import dev.lockstep.testkit.History.Event;
import dev.lockstep.testkit.History.Kind;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Draws a {@link History} as ASCII swimlanes: one lane per client plus one for Redis, one row per
 * event, {@code |} down a lane while that client is inside its critical section ({@code :} while it
 * reads under a read lock), and a marker on every row where two clients are inside at once (readers
 * together are not).
 *
 * <p>{@link #render(History, boolean)} can add ANSI colours for a terminal. The colours are only
 * escape codes around the same characters: with the codes stripped, the text is exactly
 * {@link #render(History)}'s.
 */
public final class Timeline {

    private static final int LANE = 30;
    private static final String INSIDE = "|";
    private static final String READING = ":";

    private static final String RESET = "\u001b[0m";
    private static final String BOLD = "\u001b[1m";
    private static final String DIM = "\u001b[2m";
    private static final String GREEN = "\u001b[32m";
    private static final String YELLOW = "\u001b[33m";
    private static final String MAGENTA = "\u001b[1;35m";
    private static final String CYAN = "\u001b[36m";
    /** Two clients inside at once, and the acquisition that broke a holder's lock: white on red. */
    private static final String VIOLATION = "\u001b[1;97;41m";
    /** The {@code |} of a client that is inside while another one is too. */
    private static final String CROWDED = "\u001b[1;31m";

    private Timeline() {
    }

    /** The swimlanes of {@code history}, plain text. */
    public static String render(History history) {
        return render(history, false);
    }

    /**
     * The swimlanes of {@code history}; with {@code ansi}, coloured for a terminal: the overlap marker
     * and the bars of the clients inside together in red, an acquisition made while another client
     * held the lock ({@link Checker#intrusions}) white on red, acquisitions green, refusals and
     * losses yellow, faults and crashes magenta, Redis's expiries and deletions cyan. Without
     * {@code ansi} this is {@link #render(History)}.
     */
    public static String render(History history, boolean ansi) {
        List<String> actors = history.lanes();
        Set<Event> intruders = new HashSet<>();
        if (ansi) {
            Checker.intrusions(history).forEach(i -> intruders.add(i.intruder()));
        }
        StringBuilder out = new StringBuilder();
        List<Cell> header = actors.stream().map(a -> new Cell(a, BOLD)).toList();
        row(out, new Cell("    ms", BOLD), header, Cell.EMPTY, ansi);
        row(out, new Cell("------", DIM), actors.stream().map(a -> new Cell("-".repeat(LANE), DIM)).toList(), Cell.EMPTY,
                ansi);
        Set<String> inside = new LinkedHashSet<>();
        Set<String> reading = new LinkedHashSet<>();
        for (Event e : history.events()) {
            if (e.kind() == Kind.ENTER) {
                inside.add(e.actor());
            } else if (e.kind() == Kind.READ_ENTER) {
                reading.add(e.actor());
            }
            boolean crowded = inside.size() > 1 || !inside.isEmpty() && !reading.isEmpty();
            String lane = Actor.laneOf(e.actor());
            List<Cell> cells = new ArrayList<>();
            for (String actor : actors) {
                boolean someoneInside = inside.stream().anyMatch(a -> Actor.laneOf(a).equals(actor));
                boolean someoneReading = reading.stream().anyMatch(a -> Actor.laneOf(a).equals(actor));
                cells.add(actor.equals(lane) ? new Cell(label(e), style(e, intruders))
                        : someoneInside ? new Cell(INSIDE, crowded ? CROWDED : null)
                        : someoneReading ? new Cell(READING, crowded ? CROWDED : null) : Cell.EMPTY);
            }
            Set<String> together = new LinkedHashSet<>(inside);
            together.addAll(reading);
            Cell marker = crowded ? new Cell("<-- " + together(together) + " inside", VIOLATION) : Cell.EMPTY;
            if (e.kind() == Kind.EXIT || e.kind() == Kind.CRASH) {
                inside.remove(e.actor());
            }
            if (e.kind() == Kind.READ_EXIT || e.kind() == Kind.CRASH) {
                reading.remove(e.actor());
            }
            wrapped(out, String.format("%6d", e.millis()), cells, marker, ansi);
        }
        return out.toString();
    }

    /** Text in a column, with the ANSI style it is drawn in on a terminal (null: the terminal's default). */
    private record Cell(String text, String style) {

        static final Cell EMPTY = new Cell("", null);
    }

    private static String style(Event e, Set<Event> intruders) {
        if (intruders.contains(e)) {
            return VIOLATION;
        }
        return switch (e.kind()) {
            case ACQUIRED -> GREEN;
            case DENIED, UNLOCK_REFUSED, LOST -> YELLOW;
            case CRASH, FAULT -> MAGENTA;
            case EXPIRED, DELETED -> CYAN;
            case ENTER, EXIT, READ_ENTER, READ_EXIT, UNLOCK, NOTE -> null;
        };
    }

    private static String together(Set<String> actors) {
        List<String> names = new ArrayList<>(actors);
        String last = names.remove(names.size() - 1);
        return names.size() == 1 ? names.get(0) + " and " + last + " both" : String.join(", ", names) + " and " + last + " all";
    }

    private static String label(Event e) {
        String thread = e.actor().contains("/") ? e.actor().substring(e.actor().indexOf('/') + 1) + ": " : "";
        return thread + switch (e.kind()) {
            case ACQUIRED, ENTER, EXIT, READ_ENTER, READ_EXIT, UNLOCK, NOTE -> e.detail();
            case DENIED -> "no lock: " + e.detail();
            case UNLOCK_REFUSED, LOST, EXPIRED, DELETED -> e.detail();
            case CRASH, FAULT -> "!! " + e.detail();
        };
    }

    /** One event row, continued on extra rows where a label is longer than its lane. */
    private static void wrapped(StringBuilder out, String time, List<Cell> cells, Cell marker, boolean ansi) {
        List<Cell> rest = new ArrayList<>(cells);
        boolean first = true;
        while (first || rest.stream().anyMatch(c -> c.text().length() > 0 && !c.text().equals(INSIDE)
                && !c.text().equals(READING))) {
            List<Cell> now = new ArrayList<>();
            for (int i = 0; i < rest.size(); i++) {
                Cell cell = rest.get(i);
                if (cell.text().equals(INSIDE) || cell.text().equals(READING)) {
                    now.add(cell);
                    continue;
                }
                String text = cell.text();
                int cut = text.length() <= LANE - 1 ? text.length() : breakAt(text);
                now.add(new Cell(text.substring(0, cut), cell.style()));
                rest.set(i, new Cell(text.substring(cut).stripLeading(), cell.style()));
            }
            row(out, first ? new Cell(time, null) : Cell.EMPTY, now, first ? marker : Cell.EMPTY, ansi);
            first = false;
        }
    }

    private static int breakAt(String text) {
        int space = text.lastIndexOf(' ', LANE - 1);
        return space > LANE / 2 ? space : LANE - 1;
    }

    /**
     * One line: the time, the lanes padded to their width, the marker, trailing blanks trimmed.
     * With {@code ansi}, each non-blank text is wrapped in its style after padding and trimming,
     * so the codes never count towards a column's width.
     */
    private static void row(StringBuilder out, Cell time, List<Cell> cells, Cell marker, boolean ansi) {
        StringBuilder line = new StringBuilder();
        List<int[]> spans = new ArrayList<>();
        List<String> styles = new ArrayList<>();
        append(line, String.format("%6s  ", time.text()), time, spans, styles);
        for (Cell cell : cells) {
            append(line, String.format("%-" + LANE + "s  ", cell.text()), cell, spans, styles);
        }
        append(line, marker.text(), marker, spans, styles);
        int end = line.length();
        while (end > 0 && line.charAt(end - 1) == ' ') {
            end--;
        }
        line.setLength(end);
        if (ansi) {
            for (int i = spans.size() - 1; i >= 0; i--) {
                int from = spans.get(i)[0];
                int to = Math.min(spans.get(i)[1], end);
                if (from < to) {
                    line.insert(to, RESET).insert(from, styles.get(i));
                }
            }
        }
        out.append(line).append('\n');
    }

    /** Appends {@code padded}, remembering where {@code cell}'s own text sits in it when it has a style. */
    private static void append(StringBuilder line, String padded, Cell cell, List<int[]> spans, List<String> styles) {
        int start = line.length() + padded.indexOf(cell.text());
        line.append(padded);
        if (cell.style() != null && !cell.text().isBlank()) {
            spans.add(new int[] {start, start + cell.text().length()});
            styles.add(cell.style());
        }
    }
}
