package dev.lockstep.testkit.history;

import dev.lockstep.testkit.history.History.Event;
import dev.lockstep.testkit.history.History.Kind;
import dev.lockstep.testkit.history.TimelineRows.Row;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One text timeline being drawn: walks the rows, keeping who is inside and whom each node stores the
 * key for, and turns each row into cells for the writer; then the legend.
 */
final class TimelineDrawing {

    private final List<String> clients = new ArrayList<>();
    private final List<String> nodes;
    private final KeyOwnership ownership;
    private final TimelineRows rows;
    private final TimelineColumns columns;
    private final TimelineStyle style;
    private final TimelineWriter writer;

    /** A drawing of {@code history}; with {@code ansi} coloured, with {@code fixture} the fixture's key events too. */
    TimelineDrawing(History history, boolean ansi, boolean fixture) {
        this.ownership = KeyOwnership.of(history);
        this.nodes = ownership.nodes();
        for (String name : history.lanes()) {
            if (!History.REDIS.equals(name)) {
                clients.add(name);
            }
        }
        this.style = new TimelineStyle(history, clients, ansi);
        this.rows = new TimelineRows(history, ownership, fixture);
        boolean redisLane = rows.rows().stream().anyMatch(r -> isRedis(r.shown()));
        int owners = ownership.holds().stream().mapToInt(h -> label(h.owner()).length()).max().orElse(1);
        this.columns = new TimelineColumns(clients, nodes, owners + TimelineCell.RENEWED.length(), redisLane);
        this.writer = new TimelineWriter(columns, style, ansi);
    }

    /** The whole timeline: header, a row per event, legend. */
    String draw() {
        header();
        Set<String> inside = new LinkedHashSet<>();
        Set<String> reading = new LinkedHashSet<>();
        Map<String, String> stored = new HashMap<>();
        boolean crowdedEver = false;
        for (Row row : rows.rows()) {
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
            List<TimelineCell> cells = new ArrayList<>();
            for (String client : clients) {
                boolean someoneInside = inside.stream().anyMatch(a -> Actor.laneOf(a).equals(client));
                boolean someoneReading = reading.stream().anyMatch(a -> Actor.laneOf(a).equals(client));
                String bar = someoneInside ? TimelineCell.INSIDE : someoneReading ? TimelineCell.READING : "";
                String barStyle = crowded && !bar.isEmpty() ? TimelineStyle.CROWDED : null;
                cells.add(Actor.laneOf(e.actor()).equals(client) ? new TimelineCell(label(e), style.of(e), bar)
                        : new TimelineCell(bar, barStyle, bar));
            }
            for (String node : nodes) {
                String owner = stored.getOrDefault(node, ended.get(node));
                String carried = stored.getOrDefault(node, "");
                if (owner == null) {
                    cells.add(TimelineCell.EMPTY);
                } else {
                    cells.add(new TimelineCell(owner + (renewed.contains(node) ? TimelineCell.RENEWED : ""),
                            style.owner(owner), carried));
                }
            }
            if (columns.redisLane()) {
                cells.add(isRedis(e) ? new TimelineCell(redisLabel(row), style.of(e)) : TimelineCell.EMPTY);
            }
            TimelineCell marker = crowded
                    ? new TimelineCell("x" + (inside.size() + reading.size()), TimelineStyle.VIOLATION)
                    : TimelineCell.EMPTY;
            writer.wrapped(String.format("%6d", rows.drawnAt(e) / 1_000_000), marker, cells);
            for (Event x : row.events()) {
                if (x.kind() == Kind.EXIT || x.kind() == Kind.CRASH) {
                    inside.remove(x.actor());
                }
                if (x.kind() == Kind.READ_EXIT || x.kind() == Kind.CRASH) {
                    reading.remove(x.actor());
                }
            }
        }
        writer.paragraph(legend(crowdedEver));
        return writer.text();
    }

    /** The column names, underlined. */
    private void header() {
        List<TimelineCell> header = new ArrayList<>();
        List<TimelineCell> rule = new ArrayList<>();
        for (String client : clients) {
            header.add(new TimelineCell(client, TimelineStyle.BOLD));
            rule.add(new TimelineCell("-".repeat(columns.lane()), TimelineStyle.DIM));
        }
        for (String node : nodes) {
            header.add(new TimelineCell(node, TimelineStyle.BOLD));
            rule.add(new TimelineCell("-".repeat(columns.node(node)), TimelineStyle.DIM));
        }
        if (columns.redisLane()) {
            header.add(new TimelineCell(History.REDIS, TimelineStyle.BOLD));
            rule.add(new TimelineCell("-".repeat(columns.redis()), TimelineStyle.DIM));
        }
        writer.line(new TimelineCell("ms", TimelineStyle.BOLD), TimelineCell.EMPTY, header);
        writer.line(new TimelineCell("------", TimelineStyle.DIM), TimelineCell.EMPTY, rule);
    }

    /** What the marks mean, for those this timeline uses. */
    private List<String> legend(boolean crowded) {
        List<String> parts = new ArrayList<>();
        if (crowded) {
            parts.add("x2: two clients inside at once.");
        }
        if (!nodes.isEmpty()) {
            String names = nodes.size() > 2 ? nodes.get(0) + ".." + nodes.get(nodes.size() - 1)
                    : String.join(", ", nodes);
            String whom = nodes.stream().allMatch(ownership::isKey) ? "Redis stores each key"
                    : nodes.size() == 1 ? "the node stores the lock's key" : "each node stores the lock's key";
            parts.add(names + ": whom " + whom + " for; + marks a renewal.");
        }
        if (ownership.holds().stream().anyMatch(h -> h.owner().contains("?"))) {
            parts.add("?: a key no recorded lock call wrote.");
        }
        return parts;
    }

    private static boolean isRedis(Event e) {
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

    /** An event's words in its lane: the thread (when the lane has several), then what happened. */
    private static String label(Event e) {
        String thread = e.actor().contains("/") && !History.REDIS.equals(Actor.laneOf(e.actor()))
                ? e.actor().substring(e.actor().indexOf('/') + 1) + ": " : "";
        return thread + switch (e.kind()) {
            case ACQUIRED, READ_LOCKED, ENTER, EXIT, READ_ENTER, READ_EXIT, UNLOCK, NOTE, UNLOCK_REFUSED, LOST, EXPIRED,
                 DELETED, RENEWED, HELD, DOWN, FIXTURE -> e.detail();
            case DENIED -> "no lock: " + e.detail();
            case CRASH, FAULT -> "!! " + e.detail();
        };
    }

    /** An owner as a node column shows it: the lanes that share the key, run together. */
    private static String label(String owner) {
        return owner.replace("+", "");
    }
}
