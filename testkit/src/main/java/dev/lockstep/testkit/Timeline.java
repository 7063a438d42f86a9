package dev.lockstep.testkit;

import dev.lockstep.testkit.History.Event;
import dev.lockstep.testkit.History.Kind;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Draws a {@link History} as ASCII swimlanes: one lane per client plus one for Redis, one row per
 * event, {@code |} down a lane while that client is inside its critical section, and a marker on
 * every row where two clients are inside at once.
 */
public final class Timeline {

    private static final int LANE = 30;
    private static final String INSIDE = "|";

    private Timeline() {
    }

    /** The swimlanes of {@code history}. */
    public static String render(History history) {
        List<String> actors = history.lanes();
        StringBuilder out = new StringBuilder();
        List<String> header = new ArrayList<>(actors);
        row(out, "    ms", header, "");
        row(out, "------", actors.stream().map(a -> "-".repeat(LANE)).toList(), "");
        Set<String> inside = new LinkedHashSet<>();
        for (Event e : history.events()) {
            if (e.kind() == Kind.ENTER) {
                inside.add(e.actor());
            }
            String lane = Actor.laneOf(e.actor());
            List<String> cells = new ArrayList<>();
            for (String actor : actors) {
                boolean someoneInside = inside.stream().anyMatch(a -> Actor.laneOf(a).equals(actor));
                cells.add(actor.equals(lane) ? label(e) : someoneInside ? INSIDE : "");
            }
            String marker = inside.size() > 1 ? "<-- " + together(inside) + " inside" : "";
            if (e.kind() == Kind.EXIT || e.kind() == Kind.CRASH) {
                inside.remove(e.actor());
            }
            wrapped(out, String.format("%6d", e.millis()), cells, marker);
        }
        return out.toString();
    }

    private static String together(Set<String> actors) {
        List<String> names = new ArrayList<>(actors);
        String last = names.remove(names.size() - 1);
        return names.size() == 1 ? names.get(0) + " and " + last + " both" : String.join(", ", names) + " and " + last + " all";
    }

    private static String label(Event e) {
        String thread = e.actor().contains("/") ? e.actor().substring(e.actor().indexOf('/') + 1) + ": " : "";
        return thread + switch (e.kind()) {
            case ACQUIRED, ENTER, EXIT, UNLOCK, NOTE -> e.detail();
            case DENIED -> "no lock: " + e.detail();
            case UNLOCK_REFUSED, LOST, EXPIRED, DELETED -> e.detail();
            case CRASH, FAULT -> "!! " + e.detail();
        };
    }

    /** One event row, continued on extra rows where a label is longer than its lane. */
    private static void wrapped(StringBuilder out, String time, List<String> cells, String marker) {
        List<String> rest = new ArrayList<>(cells);
        boolean first = true;
        while (first || rest.stream().anyMatch(c -> c.length() > 0 && !c.equals(INSIDE))) {
            List<String> now = new ArrayList<>();
            for (int i = 0; i < rest.size(); i++) {
                String cell = rest.get(i);
                if (cell.equals(INSIDE)) {
                    now.add(INSIDE);
                    continue;
                }
                int cut = cell.length() <= LANE - 1 ? cell.length() : breakAt(cell);
                now.add(cell.substring(0, cut));
                rest.set(i, cell.substring(cut).stripLeading());
            }
            row(out, first ? time : "", now, first ? marker : "");
            first = false;
        }
    }

    private static int breakAt(String text) {
        int space = text.lastIndexOf(' ', LANE - 1);
        return space > LANE / 2 ? space : LANE - 1;
    }

    private static void row(StringBuilder out, String time, List<String> cells, String marker) {
        out.append(String.format("%6s  ", time));
        for (String cell : cells) {
            out.append(String.format("%-" + LANE + "s  ", cell));
        }
        out.append(marker);
        int end = out.length();
        while (end > 0 && out.charAt(end - 1) == ' ') {
            end--;
        }
        out.setLength(end);
        out.append('\n');
    }
}
