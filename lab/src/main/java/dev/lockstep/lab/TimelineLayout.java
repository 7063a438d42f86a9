package dev.lockstep.lab;

import dev.lockstep.testkit.history.Checker.Overlap;
import dev.lockstep.testkit.history.Checker.Section;
import dev.lockstep.testkit.history.History;
import dev.lockstep.testkit.history.History.Event;
import dev.lockstep.testkit.history.History.Kind;
import dev.lockstep.testkit.history.KeyOwnership.Hold;
import dev.lockstep.testkit.history.KeyOwnership.Renewal;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Where everything in a timeline picture goes, in px: the header, the red bands' captions, each lane
 * and node lane from top to bottom with what is on it along the time axis, the verdict box and the
 * legend. Numbers only; {@link SvgTimeline} writes them out.
 *
 * @param scale         time along the x axis
 * @param titleY        the title's baseline
 * @param claimY        the claim's baseline
 * @param storyY        the story's first baseline
 * @param story         the story, cut into lines
 * @param axisY         the tick labels' baseline
 * @param bands         the stretches where two clients were inside at once, with their captions
 * @param lanesTop      the top of the first lane
 * @param lanes         the lanes, in the history's order
 * @param nodes         the node lanes, just above the {@code redis} lane or else below the others
 * @param lanesBottom   the bottom of the last lane
 * @param verdictTop    the top of the verdict box
 * @param verdictHeight the verdict box's height
 * @param verdict       the verdict, cut into lines
 * @param legend        the legend's keys
 * @param height        the picture's height
 */
record TimelineLayout(TimeScale scale, int titleY, int claimY, int storyY, List<String> story, int axisY,
                      List<Band> bands, int lanesTop, List<Lane> lanes, List<NodeLane> nodes, int lanesBottom,
                      int verdictTop, int verdictHeight, List<String> verdict, List<Legend.Placed> legend,
                      int height) {

    /** The picture's width. */
    static final int WIDTH = 1240;
    /** Where the plot starts: the lanes' names stand left of it. */
    static final int LEFT = 92;
    /** The margin right of the plot. */
    static final int RIGHT = 24;
    /** The plot's width. */
    static final int PLOT = WIDTH - LEFT - RIGHT;
    /** The labels' font size. */
    static final double LABEL_FONT = 11;
    /** Advance of one monospace character at {@link #LABEL_FONT}: 0.6 em in DejaVu Sans Mono, Menlo, Consolas, Courier. */
    static final double CHAR = LABEL_FONT * 0.61;
    /** The height of one row of labels or captions. */
    static final int LABEL_ROW = 15;
    /** The widest line of the story, in characters; the verdict's is 6 less, inside its box. */
    private static final int TEXT_CHARS = 165;
    /** The advance of one character of a band's bold caption. */
    private static final double CAPTION_CHAR = 7.2;
    /** A lock call that waited longer than this, in ns, gets a dotted line for the wait. */
    private static final long SHOWN_WAIT_NANOS = 3_000_000;

    /** Something drawn from {@code from} to {@code to} along the time axis. */
    record Stretch<T>(T what, double from, double to) {
    }

    /** Something drawn at {@code x}. */
    record Spot<T>(T what, double x) {
    }

    /** A client's lane (or the {@code redis} lane): its bar's y, its labels, critical sections and waits. */
    record Lane(String name, int index, int top, int bar, int bottom, List<LaneLabel> labels,
                List<Stretch<Section>> sections, List<Stretch<Event>> waits) {

        /** The baseline of {@code label}'s text: its row above the bar. */
        int baseline(LaneLabel label) {
            return bar - 16 - label.row() * LABEL_ROW;
        }
    }

    /** A node's lane: a bar per stretch it stored the key, and a tick per renewal. */
    record NodeLane(String name, int top, int bar, List<Stretch<Hold>> holds, List<Spot<Renewal>> renewals) {
    }

    /** A red band from {@code from} to {@code to} and its caption's start and baseline. */
    record Band(Overlap overlap, double from, double to, String text, double textX, int textY) {
    }

    /** The layout of {@code content}. */
    static TimelineLayout of(TimelineContent content) {
        TimeScale scale = TimeScale.of(content.events());
        List<String> story = wrap(content.picture().story(), TEXT_CHARS);
        List<String> verdict = wrap(content.verdictLine(), TEXT_CHARS - 6);
        int titleY = 34;
        int claimY = titleY + 22;
        int storyY = claimY + 8 + 18;
        int axisY = claimY + 8 + 18 * story.size() + 22;
        RowPacker captionRows = new RowPacker();
        List<Band> bands = bands(content, scale, axisY, captionRows);
        int lanesTop = axisY + 10 + captionRows.rows() * LABEL_ROW;
        List<Lane> lanes = new ArrayList<>();
        List<NodeLane> nodes = new ArrayList<>();
        int y = lanesTop;
        for (String name : content.lanes()) {
            if (History.REDIS.equals(name)) {
                y = stackNodes(content, scale, y, nodes);
            }
            Lane lane = lane(content, scale, name, lanes.size(), y);
            lanes.add(lane);
            y = lane.bottom();
        }
        if (!content.lanes().contains(History.REDIS)) {
            y = stackNodes(content, scale, y, nodes);
        }
        int verdictTop = y + 22;
        int verdictHeight = 18 * verdict.size() + 18;
        List<Legend.Placed> legend = Legend.place(verdictTop + verdictHeight + 26);
        int height = legend.get(legend.size() - 1).y() + 24;
        return new TimelineLayout(scale, titleY, claimY, storyY, story, axisY, bands, lanesTop, lanes, nodes, y,
                verdictTop, verdictHeight, verdict, legend, height);
    }

    private static Lane lane(TimelineContent content, TimeScale scale, String name, int index, int top) {
        List<LaneLabel> labels = LaneLabel.pack(content, scale, name);
        int rows = Math.max(1, labels.stream().mapToInt(LaneLabel::row).max().orElse(0) + 1);
        int bar = top + 12 + rows * LABEL_ROW + 12;
        List<Stretch<Section>> sections = new ArrayList<>();
        for (Section section : content.sections()) {
            if (TimelineContent.laneOf(section.actor()).equals(name)) {
                double from = scale.x(section.from());
                sections.add(new Stretch<>(section, from, Math.max(scale.x(section.to()), from + 2)));
            }
        }
        List<Stretch<Event>> waits = new ArrayList<>();
        for (Event e : content.events()) {
            boolean call = e.kind() == Kind.ACQUIRED || e.kind() == Kind.DENIED;
            if (call && TimelineContent.laneOf(e.actor()).equals(name) && e.at() - e.since() > SHOWN_WAIT_NANOS) {
                waits.add(new Stretch<>(e, scale.x(e.since()), scale.x(e.at())));
            }
        }
        return new Lane(name, index, top, bar, bar + 20, labels, sections, waits);
    }

    /** Lays the node lanes from {@code y} down; the y below them. */
    private static int stackNodes(TimelineContent content, TimeScale scale, int y, List<NodeLane> nodes) {
        for (String node : content.ownership().nodes()) {
            List<Stretch<Hold>> holds = new ArrayList<>();
            for (Hold hold : content.ownership().holds()) {
                if (hold.node().equals(node)) {
                    double from = scale.x(hold.from());
                    holds.add(new Stretch<>(hold, from, Math.max(scale.x(hold.to()), from + 2)));
                }
            }
            List<Spot<Renewal>> renewals = content.ownership().renewals().stream()
                    .filter(r -> r.node().equals(node)).map(r -> new Spot<>(r, scale.x(r.at()))).toList();
            nodes.add(new NodeLane(node, y, y + 16, holds, renewals));
            y += 32;
        }
        return y;
    }

    /** One caption per pair of clients and start, each on the first row free above the lanes. */
    private static List<Band> bands(TimelineContent content, TimeScale scale, int axisY, RowPacker rows) {
        List<Band> bands = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (Overlap overlap : content.overlaps()) {
            double from = scale.x(overlap.from());
            double to = scale.x(Math.min(overlap.first().to(), overlap.second().to()));
            String text = overlap.first().actor() + " and " + overlap.second().actor() + " both inside";
            if (!seen.add(text + Math.round(from))) {
                continue;
            }
            double width = text.length() * CAPTION_CHAR + 8;
            double start = Math.min(from, WIDTH - RIGHT - width);
            int row = rows.place(start, start + width);
            bands.add(new Band(overlap, from, to, text, start, axisY + 6 + (row + 1) * LABEL_ROW));
        }
        return bands;
    }

    /** {@code text} cut into lines of at most {@code width} characters, at spaces where it can. */
    static List<String> wrap(String text, int width) {
        List<String> lines = new ArrayList<>();
        for (String paragraph : text.split("\n")) {
            String rest = paragraph.strip();
            while (rest.length() > width) {
                int cut = rest.lastIndexOf(' ', width);
                if (cut <= width / 3) {
                    cut = width;
                }
                lines.add(rest.substring(0, cut).stripTrailing());
                rest = rest.substring(cut).stripLeading();
            }
            lines.add(rest);
        }
        return lines;
    }
}
