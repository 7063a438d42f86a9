package dev.lockstep.lab;

import dev.lockstep.testkit.history.History.Event;
import java.util.ArrayList;
import java.util.List;

/**
 * One label over a lane: the events it names (one actor's, about one instant), its text, where its
 * stem stands, which side of the stem the text runs, and its row above the lane's bar.
 *
 * @param events    the events it names, each marked at its stem
 * @param parts     its text
 * @param x         its stem's x
 * @param anchorEnd whether the text runs left of the stem, as it would not fit right of it
 * @param row       its row, 0 just above the bar
 */
record LaneLabel(List<Event> events, List<Part> parts, double x, boolean anchorEnd, int row) {

    /** Events of one actor this close, in px, share a label. */
    private static final double SAME_PLACE = 2.5;
    /** The room a label's text needs beyond its characters: the gap between stem and text, and a margin. */
    private static final double PADDING = 8;
    /** A label running past this x turns to the left of its stem. */
    private static final double RIGHT_EDGE = TimelineLayout.WIDTH - 6;

    /** The labels of lane {@code lane}, each on the lowest row where it overlaps no other. */
    static List<LaneLabel> pack(TimelineContent content, TimeScale scale, String lane) {
        List<LaneLabel> labels = new ArrayList<>();
        RowPacker rows = new RowPacker();
        for (Group group : group(content, scale, lane)) {
            double width = group.parts.stream().mapToInt(p -> p.text().length()).sum() * TimelineLayout.CHAR + PADDING;
            boolean anchorEnd = group.x + width > RIGHT_EDGE;
            double from = anchorEnd ? group.x - width : group.x;
            double to = anchorEnd ? group.x : group.x + width;
            labels.add(new LaneLabel(List.copyOf(group.events), List.copyOf(group.parts), group.x, anchorEnd,
                    rows.place(from, to)));
        }
        return labels;
    }

    /** A label before it has a row: the events at one place, their text, and the place. */
    private record Group(List<Event> events, List<Part> parts, double x) {
    }

    /** The lane's events, one group per actor and place: later ones join it after a dot. */
    private static List<Group> group(TimelineContent content, TimeScale scale, String lane) {
        List<Group> groups = new ArrayList<>();
        Group current = null;
        for (Event e : content.events()) {
            if (!TimelineContent.laneOf(e.actor()).equals(lane)) {
                continue;
            }
            double x = scale.x(e.at());
            if (current == null || !current.events.get(0).actor().equals(e.actor()) || x - current.x > SAME_PLACE) {
                current = new Group(new ArrayList<>(), new ArrayList<>(), x);
                groups.add(current);
                String actor = e.actor();
                if (actor.contains("/")) {
                    current.parts.add(Part.plain(actor.substring(actor.indexOf('/') + 1) + ": ", "#5f6368"));
                }
            } else {
                current.parts.add(Part.plain(" · ", "#9aa0a6"));
            }
            current.events.add(e);
            current.parts.addAll(content.parts(e));
        }
        return groups;
    }
}
