package dev.lockstep.testkit.history;

import dev.lockstep.testkit.history.History.Event;
import dev.lockstep.testkit.history.History.Kind;
import dev.lockstep.testkit.history.KeyOwnership.Deadline;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Draws a {@link History} as text swimlanes, one row per event, at most {@value #COLUMNS} columns wide:
 * <ul>
 *   <li>after the time, {@code x2} (or {@code x3}) on every row where that many clients are inside at
 *       once (readers together are not);</li>
 *   <li>a lane per client, with {@code |} down it while that client is inside its critical section
 *       ({@code :} while it reads under a read lock), and a row where its lease ran out by its own clock;</li>
 *   <li>a narrow column per Redis node ({@code master}, {@code replica}, {@code n1..n5}) naming whom the
 *       node stores the lock's key for, {@code +} on a row where it was renewed;</li>
 *   <li>a {@code redis} lane for what Redis reports and the faults injected.</li>
 * </ul>
 * Events on the fixture's own keys are left out unless asked for. {@link #render(History, boolean)} can
 * add ANSI colours for a terminal: only escape codes around the same characters, so with the codes
 * stripped the text is exactly {@link #render(History)}'s.
 */
public final class Timeline {

    /** The widest a row gets. */
    public static final int COLUMNS = 120;
    private static final int MAX_LANE = 30;
    private static final int MIN_LANE = 12;
    private static final int MIN_REDIS_LANE = 26;
    private static final String INSIDE = "|";
    private static final String READING = ":";
    private static final String RENEWED = "+";

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
    /** A node's key, in its owner's colour: the first client's blue, the second's green, and so on. */
    private static final String[] OWNER = {"\u001b[97;44m", "\u001b[30;42m", "\u001b[30;43m", "\u001b[97;45m",
        "\u001b[30;46m", "\u001b[30;47m"};

    private Timeline() {
    }

    /** The swimlanes of {@code history}, plain text. */
    public static String render(History history) {
        return render(history, false, false);
    }

    /** The swimlanes of {@code history}; with {@code ansi}, coloured for a terminal (see {@link #render(History, boolean, boolean)}). */
    public static String render(History history, boolean ansi) {
        return render(history, ansi, false);
    }

    /**
     * The swimlanes of {@code history}. With {@code ansi}, coloured for a terminal: the overlap marker
     * and the bars of the clients inside together in red, an acquisition made while another client held
     * the lock ({@link Checker#intrusions}) white on red, acquisitions green, refusals and losses yellow,
     * faults and crashes magenta, Redis's expiries and deletions cyan, each node's key in its owner's
     * colour. With {@code fixture}, the fixture's own key events too.
     */
    public static String render(History history, boolean ansi, boolean fixture) {
        return new Drawing(history, ansi, fixture).draw();
    }

    /** Text in a column, the ANSI style it is drawn in (null: the terminal's default), and what its continuation rows show. */
    private record Cell(String text, String style, String carried) {

        static final Cell EMPTY = new Cell("", null, "");

        Cell(String text, String style) {
            this(text, style, "");
        }
    }

    /**
     * One row: the event it shows (or node events of one kind at about the same time), after the
     * silent events since the previous row, which change only what the columns show.
     */
    private record Row(Event shown, List<Event> events) {
    }

    private static final class Drawing {

        private final boolean ansi;
        private final List<String> clients = new ArrayList<>();
        private final List<String> nodes;
        private final KeyOwnership ownership;
        private final List<Row> rows;
        private final boolean redisLane;
        private final int lane;
        private final int redisWidth;
        private final Map<String, Integer> nodeWidths = new HashMap<>();
        private final Set<Event> intruders = new HashSet<>();
        private final Map<Event, Long> drawn = new HashMap<>();
        private final StringBuilder out = new StringBuilder();

        Drawing(History history, boolean ansi, boolean fixture) {
            this.ansi = ansi;
            this.ownership = KeyOwnership.of(history);
            this.nodes = ownership.nodes();
            for (String name : history.lanes()) {
                if (!History.REDIS.equals(name)) {
                    clients.add(name);
                }
            }
            if (ansi) {
                Checker.intrusions(history).forEach(i -> intruders.add(i.intruder()));
            }
            List<Event> events = new ArrayList<>(history.events());
            for (Deadline deadline : ownership.deadlines()) {
                events.add(deadline.event());
            }
            drawnAt(events);
            events.sort((x, y) -> Long.compare(drawnAt(x), drawnAt(y)));
            this.rows = rows(events, fixture);
            this.redisLane = rows.stream().anyMatch(r -> isRedis(r.shown()));
            int owners = ownership.holds().stream().mapToInt(h -> label(h.owner()).length()).max().orElse(1);
            int nodeColumns = 0;
            for (String node : nodes) {
                int width = Math.max(Math.max(3, node.length()), owners + RENEWED.length());
                nodeWidths.put(node, width);
                nodeColumns += width + 2;
            }
            int fixed = 12 + nodeColumns + (redisLane ? MIN_REDIS_LANE : 0);
            this.lane = clients.isEmpty() ? MIN_LANE
                    : Math.max(MIN_LANE, Math.min(MAX_LANE, (COLUMNS - fixed) / clients.size() - 2));
            this.redisWidth = COLUMNS - 12 - nodeColumns - clients.size() * (lane + 2);
        }

        /**
         * Moves each node's key taken onto the row of the acquisition that took it, and that node's
         * earlier events (the previous owner's expiry or deletion) before it: they happened first, though
         * the watch may hear of them after the client hears its reply.
         */
        private void drawnAt(List<Event> events) {
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

        private long drawnAt(Event e) {
            return drawn.getOrDefault(e, e.at());
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

        String draw() {
            List<Cell> header = new ArrayList<>();
            List<Cell> rule = new ArrayList<>();
            for (String client : clients) {
                header.add(new Cell(client, BOLD));
                rule.add(new Cell("-".repeat(lane), DIM));
            }
            for (String node : nodes) {
                header.add(new Cell(node, BOLD));
                rule.add(new Cell("-".repeat(nodeWidths.get(node)), DIM));
            }
            if (redisLane) {
                header.add(new Cell(History.REDIS, BOLD));
                rule.add(new Cell("-".repeat(redisWidth), DIM));
            }
            line(new Cell("ms", BOLD), Cell.EMPTY, header);
            line(new Cell("------", DIM), Cell.EMPTY, rule);

            Set<String> inside = new LinkedHashSet<>();
            Set<String> reading = new LinkedHashSet<>();
            Map<String, String> stored = new HashMap<>();
            boolean crowdedEver = false;
            for (Row row : rows) {
                Map<String, String> ended = new HashMap<>();
                Set<String> renewed = new HashSet<>();
                for (Event e : row.events()) {
                    String node = KeyOwnership.node(e);
                    switch (e.kind()) {
                        case ENTER -> inside.add(e.actor());
                        case READ_ENTER -> reading.add(e.actor());
                        case HELD -> stored.put(node, label(ownership.owner(e)));
                        case RENEWED -> renewed.add(node);
                        case EXPIRED, DELETED, DOWN -> {
                            if (node != null && stored.containsKey(node)) {
                                ended.put(node, stored.remove(node));
                            }
                        }
                        default -> {
                        }
                    }
                }
                boolean crowded = inside.size() > 1 || !inside.isEmpty() && !reading.isEmpty();
                crowdedEver |= crowded;
                Event e = row.shown();
                List<Cell> cells = new ArrayList<>();
                for (String client : clients) {
                    boolean someoneInside = inside.stream().anyMatch(a -> Actor.laneOf(a).equals(client));
                    boolean someoneReading = reading.stream().anyMatch(a -> Actor.laneOf(a).equals(client));
                    String bar = someoneInside ? INSIDE : someoneReading ? READING : "";
                    String barStyle = crowded && !bar.isEmpty() ? CROWDED : null;
                    cells.add(Actor.laneOf(e.actor()).equals(client) ? new Cell(label(e), style(e), bar)
                            : new Cell(bar, barStyle, bar));
                }
                for (String node : nodes) {
                    String owner = stored.getOrDefault(node, ended.get(node));
                    String carried = stored.getOrDefault(node, "");
                    if (owner == null) {
                        cells.add(Cell.EMPTY);
                    } else {
                        cells.add(new Cell(owner + (renewed.contains(node) ? RENEWED : ""), ownerStyle(owner),
                                carried));
                    }
                }
                if (redisLane) {
                    cells.add(isRedis(e) ? new Cell(redisLabel(row), style(e)) : Cell.EMPTY);
                }
                Cell marker = crowded ? new Cell("x" + (inside.size() + reading.size()), VIOLATION) : Cell.EMPTY;
                wrapped(String.format("%6d", drawnAt(e) / 1_000_000), marker, cells);
                for (Event x : row.events()) {
                    if (x.kind() == Kind.EXIT || x.kind() == Kind.CRASH) {
                        inside.remove(x.actor());
                    }
                    if (x.kind() == Kind.READ_EXIT || x.kind() == Kind.CRASH) {
                        reading.remove(x.actor());
                    }
                }
            }
            legend(crowdedEver);
            return out.toString();
        }

        private void legend(boolean crowded) {
            List<String> parts = new ArrayList<>();
            if (crowded) {
                parts.add("x2: two clients inside at once.");
            }
            if (!nodes.isEmpty()) {
                String names = nodes.size() > 2 ? nodes.get(0) + ".." + nodes.get(nodes.size() - 1) : String.join(", ", nodes);
                parts.add(names + ": whom " + (nodes.size() == 1 ? "the node" : "each node")
                        + " stores the lock's key for; + marks a renewal.");
            }
            if (ownership.holds().stream().anyMatch(h -> h.owner().contains("?"))) {
                parts.add("?: a key no recorded lock call wrote.");
            }
            if (!parts.isEmpty()) {
                out.append('\n');
                for (String text : parts) {
                    out.append(text).append('\n');
                }
            }
        }

        private boolean isRedis(Event e) {
            return History.REDIS.equals(Actor.laneOf(e.actor()));
        }

        /** A Redis row's words: the node (or nodes) it happened on, unless there is only one, then what happened. */
        private String redisLabel(Row row) {
            Event e = row.shown();
            List<String> on = nodes.stream().filter(n -> row.events().stream()
                    .anyMatch(x -> x.kind() == e.kind() && n.equals(KeyOwnership.node(x)))).toList();
            String where = on.isEmpty() || nodes.size() <= 1 ? "" : String.join(", ", on) + ": ";
            return where + label(e);
        }

        private String style(Event e) {
            if (intruders.contains(e)) {
                return VIOLATION;
            }
            return switch (e.kind()) {
                case ACQUIRED, READ_LOCKED -> GREEN;
                case DENIED, UNLOCK_REFUSED, LOST -> YELLOW;
                case CRASH, FAULT -> MAGENTA;
                case EXPIRED, DELETED, RENEWED -> CYAN;
                case ENTER, EXIT, READ_ENTER, READ_EXIT, UNLOCK, NOTE, HELD, DOWN, FIXTURE -> null;
            };
        }

        private String ownerStyle(String owner) {
            int index = clients.indexOf(owner);
            return index < 0 ? BOLD : OWNER[index % OWNER.length];
        }

        /** One event row, continued on extra rows while a label is longer than its column. */
        private void wrapped(String time, Cell marker, List<Cell> cells) {
            List<Cell> rest = new ArrayList<>(cells);
            boolean first = true;
            while (first || rest.stream().anyMatch(c -> !c.text().isEmpty())) {
                List<Cell> now = new ArrayList<>();
                for (int i = 0; i < rest.size(); i++) {
                    Cell cell = rest.get(i);
                    int width = width(i);
                    String text = cell.text();
                    int cut = text.length() <= width ? text.length() : breakAt(text, width);
                    now.add(new Cell(first || !text.isEmpty() ? text.substring(0, cut) : cell.carried(), cell.style()));
                    String left = text.substring(cut).stripLeading();
                    rest.set(i, new Cell(left, cell.style(), cell.carried()));
                }
                if (!first) {
                    // Continuation rows carry the bars on, and nothing else that was already drawn.
                    for (int i = 0; i < now.size(); i++) {
                        if (now.get(i).text().isEmpty()) {
                            Cell cell = rest.get(i);
                            now.set(i, new Cell(cell.carried(), cell.carried().equals(INSIDE)
                                    || cell.carried().equals(READING) ? cells.get(i).style() : ownerStyle(cell.carried())));
                        }
                    }
                }
                line(first ? new Cell(time, null) : Cell.EMPTY, first ? marker : Cell.EMPTY, now);
                first = false;
            }
        }

        private int width(int column) {
            if (column < clients.size()) {
                return lane;
            }
            int node = column - clients.size();
            return node < nodes.size() ? nodeWidths.get(nodes.get(node)) : redisWidth;
        }

        private static int breakAt(String text, int width) {
            int space = text.lastIndexOf(' ', width);
            return space > width / 2 ? space : width;
        }

        /**
         * One line: the time, the marker, the columns padded to their widths, trailing blanks trimmed.
         * With {@code ansi}, each non-blank text is wrapped in its style after padding and trimming,
         * so the codes never count towards a column's width.
         */
        private void line(Cell time, Cell marker, List<Cell> cells) {
            StringBuilder line = new StringBuilder();
            List<int[]> spans = new ArrayList<>();
            List<String> styles = new ArrayList<>();
            append(line, String.format("%6s", time.text()), time, spans, styles);
            append(line, String.format("  %-2s  ", marker.text()), marker, spans, styles);
            for (int i = 0; i < cells.size(); i++) {
                append(line, String.format("%-" + width(i) + "s  ", cells.get(i).text()), cells.get(i), spans, styles);
            }
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

    private static String label(Event e) {
        String thread = e.actor().contains("/") && !History.REDIS.equals(Actor.laneOf(e.actor()))
                ? e.actor().substring(e.actor().indexOf('/') + 1) + ": " : "";
        return thread + switch (e.kind()) {
            case ACQUIRED, READ_LOCKED, ENTER, EXIT, READ_ENTER, READ_EXIT, UNLOCK, NOTE, UNLOCK_REFUSED, LOST, EXPIRED, DELETED,
                 RENEWED, HELD, DOWN, FIXTURE -> e.detail();
            case DENIED -> "no lock: " + e.detail();
            case CRASH, FAULT -> "!! " + e.detail();
        };
    }

    /** An owner as a node column shows it: the lanes that share the key, run together. */
    private static String label(String owner) {
        return owner.replace("+", "");
    }
}
