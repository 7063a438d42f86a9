package dev.lockstep.lab;

import dev.lockstep.testkit.history.Checker;
import dev.lockstep.testkit.history.Checker.Intrusion;
import dev.lockstep.testkit.history.Checker.Overlap;
import dev.lockstep.testkit.history.Checker.Section;
import dev.lockstep.testkit.history.History;
import dev.lockstep.testkit.history.History.Event;
import dev.lockstep.testkit.history.History.Kind;
import dev.lockstep.testkit.history.KeyOwnership;
import dev.lockstep.testkit.history.KeyOwnership.Deadline;
import dev.lockstep.testkit.history.KeyOwnership.Hold;
import dev.lockstep.testkit.history.KeyOwnership.Renewal;
import dev.lockstep.testkit.scenario.Outcome;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Draws one outcome's recorded history as an SVG picture: time runs left to right, one swimlane per
 * client, then one per Redis node, then one for what Redis reports. Critical sections are bars in the
 * client's colour; a node's lane shows whom it stores the key for as a bar in that owner's colour,
 * with a tick per renewal; a dashed line marks where a holder's lease ran out by its own clock. Every
 * event is a labelled tick with a mark for its kind, the stretches where two clients were inside at
 * once are red bands, an acquisition made while another client held the lock is ringed in red, and
 * the verdict is one sentence below.
 *
 * <p>Plain string building, no library: the picture is a few hundred rectangles, lines and texts
 * with fixed geometry, which a {@link StringBuilder} writes in a page of code. An SVG library
 * (Batik, JFreeSVG) would add megabytes to the jar and nothing this needs; the one subtle part,
 * XML escaping, is {@link #xml(String)}.
 */
final class SvgTimeline {

    private static final int WIDTH = 1240;
    private static final int LEFT = 92;
    private static final int RIGHT = 24;
    private static final int PLOT = WIDTH - LEFT - RIGHT;
    private static final double LABEL_FONT = 11;
    /** Advance of one monospace character at {@link #LABEL_FONT}: 0.6 em in DejaVu Sans Mono, Menlo, Consolas, Courier. */
    private static final double CHAR = LABEL_FONT * 0.61;
    private static final int LABEL_ROW = 15;
    private static final int MAX_PART = 46;
    private static final int TEXT_CHARS = 165;
    private static final String SANS = "'DejaVu Sans', 'Segoe UI', Helvetica, Arial, sans-serif";
    private static final String MONO = "'DejaVu Sans Mono', Menlo, Consolas, 'Liberation Mono', monospace";
    private static final String[] LANE_COLOURS = {"#5b8def", "#43a047", "#f9a825", "#8e63ce", "#00acc1", "#ef6c9c"};
    private static final String RED = "#d93025";

    private SvgTimeline() {
    }

    /** How the verdict reads under the picture. */
    enum Tone {
        /** The guarantee was broken. */
        VIOLATION,
        /** The guarantee held. */
        OK,
        /** The run itself broke. */
        BROKEN
    }

    /**
     * What one picture shows.
     *
     * @param title   first line, e.g. {@code v1-setnx / foreign-unlock: reproduced}
     * @param claim   second line, e.g. {@code v1-setnx does not claim OWNER_ONLY_RELEASE}
     * @param story   the scenario's story
     * @param history what happened
     * @param tone    how the run was judged
     * @param verdict the judgement in one sentence
     * @param steps   names to put before some events' labels (T1..T6), may be empty
     */
    record Picture(String title, String claim, String story, History history, Tone tone, String verdict,
                   Map<Event, String> steps) {
    }

    /** The picture of {@code outcome}. */
    static String render(Outcome outcome) {
        return render(picture(outcome));
    }

    /** What the picture of {@code outcome} shows. */
    static Picture picture(Outcome outcome) {
        Tone tone;
        String verdict;
        if (outcome.error() != null) {
            tone = Tone.BROKEN;
            verdict = String.valueOf(outcome.error());
        } else {
            tone = outcome.verdict().violated() ? Tone.VIOLATION : Tone.OK;
            verdict = outcome.verdict().explanation();
        }
        return new Picture(outcome.stage().name() + " / " + outcome.scenario().id() + ": " + outcome.cell(),
                outcome.stage().name() + (outcome.claimed() ? " claims " : " does not claim ")
                        + outcome.scenario().guarantee(),
                outcome.scenario().story(), outcome.history(), tone, verdict, Steps.byEvent(Steps.of(outcome)));
    }

    /** The SVG document for {@code picture}. */
    static String render(Picture picture) {
        return new Drawing(picture).draw();
    }

    /** One drawing in progress: the layout is computed first, then written top to bottom. */
    private static final class Drawing {

        private final Picture picture;
        private final List<Event> events;
        private final List<String> lanes;
        private final KeyOwnership ownership;
        private final Set<Event> deadlines = new HashSet<>();
        private final Map<Event, String> steps = new HashMap<>();
        private final StringBuilder svg = new StringBuilder();
        private final double t0;
        private final double t1;
        private final double step;
        private final Set<Event> highlighted = new HashSet<>();
        private final Map<Event, String> intruded = new HashMap<>();
        private final List<Overlap> overlaps;

        Drawing(Picture picture) {
            this.picture = picture;
            this.ownership = KeyOwnership.of(picture.history());
            this.steps.putAll(picture.steps());
            this.events = shown(picture.history().events());
            this.lanes = picture.history().lanes();
            this.overlaps = Checker.overlaps(picture.history());
            double first = events.isEmpty() ? 0 : events.get(0).at() / 1e6;
            double last = events.isEmpty() ? 100 : events.get(events.size() - 1).at() / 1e6;
            this.step = niceStep(Math.max(last - first, 20));
            this.t0 = Math.floor(first / step) * step;
            this.t1 = Math.max(Math.ceil(last / step) * step, t0 + step);
            for (Intrusion intrusion : Checker.intrusions(picture.history())) {
                highlighted.add(intrusion.intruder());
                intruded.putIfAbsent(intrusion.intruder(), laneOf(intrusion.holder().actor()));
            }
            if (picture.tone() == Tone.VIOLATION && overlaps.isEmpty() && intruded.isEmpty()) {
                // No overlap and no intrusion to point at (a holder waiting for itself, say): mark the refusals.
                events.stream().filter(e -> e.kind() == Kind.DENIED || e.kind() == Kind.UNLOCK_REFUSED
                        || e.kind() == Kind.LOST).forEach(highlighted::add);
            }
        }

        /**
         * The events that get a label: not the node events the node lanes draw (holds, renewals, a node
         * going down) nor the fixture's; node expiries and deletions of one key at about one instant as one
         * event; and each lease that ran out under its holder.
         */
        private List<Event> shown(List<Event> recorded) {
            List<Event> result = new ArrayList<>();
            for (Event e : recorded) {
                if (e.kind() == Kind.HELD || e.kind() == Kind.RENEWED || e.kind() == Kind.DOWN || e.kind() == Kind.FIXTURE) {
                    continue;
                }
                String node = KeyOwnership.node(e);
                Event previous = result.isEmpty() ? null : result.get(result.size() - 1);
                String where = ownership.nodes().size() > 1 && node != null ? node + ": " : "";
                if (node != null && previous != null && previous.kind() == e.kind()
                        && previous.actor().equals(History.REDIS) && e.at() - previous.at() <= KeyOwnership.ONE_INSTANT_NANOS
                        && previous.detail().endsWith(": " + e.detail())) {
                    String nodes = previous.detail().substring(0, previous.detail().length() - e.detail().length() - 2);
                    Event merged = new Event(previous.at(), History.REDIS, e.kind(), nodes + ", " + where + e.detail(),
                            previous.at(), Long.MAX_VALUE, 0);
                    steps.put(merged, steps.get(previous));
                    result.set(result.size() - 1, merged);
                } else if (node != null) {
                    Event onRedisLane = new Event(e.at(), History.REDIS, e.kind(), where + e.detail(), e.at(), Long.MAX_VALUE, 0);
                    steps.put(onRedisLane, steps.get(e));
                    result.add(onRedisLane);
                } else {
                    result.add(e);
                }
            }
            for (Deadline deadline : ownership.deadlines()) {
                Event e = deadline.event();
                deadlines.add(e);
                result.add(e);
            }
            result.sort((x, y) -> Long.compare(x.at(), y.at()));
            return result;
        }

        String draw() {
            List<Lane> laid = new ArrayList<>();
            for (String lane : lanes) {
                laid.add(new Lane(lane, labels(lane)));
            }
            List<NodeLane> nodeLanes = ownership.nodes().stream().map(NodeLane::new).toList();
            List<BandLabel> bandLabels = bandLabels();
            int bandRows = bandLabels.stream().mapToInt(BandLabel::row).max().orElse(-1) + 1;

            List<String> story = wrap(picture.story(), TEXT_CHARS);
            String verdictHead = switch (picture.tone()) {
                case VIOLATION -> "VIOLATION: ";
                case OK -> "OK: ";
                case BROKEN -> "The run broke: ";
            };
            List<String> verdict = wrap(verdictHead + picture.verdict(), TEXT_CHARS - 6);

            int y = 34;
            int titleY = y;
            y += 22;
            int claimY = y;
            y += 8;
            int storyY = y + 18;
            y += 18 * story.size() + 22;
            int axisY = y;
            y += 10 + bandRows * LABEL_ROW;
            int lanesTop = y;
            for (Lane lane : laid) {
                if (History.REDIS.equals(lane.name)) {
                    y = layNodes(nodeLanes, y);
                }
                lane.top = y;
                lane.bar = y + 12 + lane.rows * LABEL_ROW + 12;
                lane.bottom = lane.bar + 20;
                y = lane.bottom;
            }
            if (laid.stream().noneMatch(l -> History.REDIS.equals(l.name))) {
                y = layNodes(nodeLanes, y);
            }
            int lanesBottom = y;
            y += 22;
            int verdictTop = y;
            int verdictHeight = 18 * verdict.size() + 18;
            y += verdictHeight + 26;
            int legendY = y;
            int height = legendY + 20 * (LEGEND_ROWS - 1) + 24;

            svg.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
            svg.append(String.format(Locale.ROOT,
                    "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
                            + "font-family=\"%s\" font-size=\"13\">%n", WIDTH, height, WIDTH, height, SANS));
            svg.append("<title>").append(xml(picture.title())).append("</title>\n");
            svg.append("<desc>").append(xml(picture.story() + " " + verdictHead + picture.verdict())).append("</desc>\n");
            svg.append("<style>text.label{font-family:").append(MONO).append(";font-size:").append(LABEL_FONT)
                    .append("px;paint-order:stroke;stroke:#fff;stroke-width:3px;stroke-linejoin:round}</style>\n");
            rect(0, 0, WIDTH, height, "#ffffff", null);

            text(24, titleY, picture.title(), "font-size=\"19\" font-weight=\"bold\" fill=\"#202124\"");
            text(24, claimY, picture.claim(), "fill=\"#5f6368\"");
            for (int i = 0; i < story.size(); i++) {
                text(24, storyY + 18 * i, story.get(i), "fill=\"#202124\"");
            }

            axis(axisY, lanesTop, lanesBottom);
            for (int i = 0; i < laid.size(); i++) {
                laneBackground(laid.get(i), i);
            }
            for (NodeLane node : nodeLanes) {
                nodeBackground(node);
            }
            bands(bandLabels, axisY, lanesTop, lanesBottom);
            for (int i = 0; i < laid.size(); i++) {
                laneContent(laid.get(i), i);
            }
            for (NodeLane node : nodeLanes) {
                nodeContent(node);
            }
            if (events.isEmpty()) {
                text(LEFT, lanesTop + 20, "(no events were recorded)", "fill=\"#5f6368\"");
            }
            verdictBox(verdictTop, verdictHeight, verdict);
            legend(legendY);
            svg.append("</svg>\n");
            return svg.toString();
        }

        // ---- layout -------------------------------------------------------------------------

        /** A lane: its name, its labels with their rows, and its vertical position once laid out. */
        private final class Lane {
            final String name;
            final List<Label> labels;
            final int rows;
            int top;
            int bar;
            int bottom;

            Lane(String name, List<Label> labels) {
                this.name = name;
                this.labels = labels;
                this.rows = Math.max(1, labels.stream().mapToInt(l -> l.row).max().orElse(0) + 1);
            }
        }

        /** A node's lane: a bar per stretch it stored the key, in the owner's colour. */
        private static final class NodeLane {
            final String name;
            int top;
            int bar;

            NodeLane(String name) {
                this.name = name;
            }
        }

        private static int layNodes(List<NodeLane> nodes, int y) {
            for (NodeLane node : nodes) {
                node.top = y;
                node.bar = y + 16;
                y += 32;
            }
            return y;
        }

        /** One label: the events it names (one actor, about the same instant), its text parts, its place. */
        private static final class Label {
            final List<Event> events = new ArrayList<>();
            final List<String[]> parts = new ArrayList<>();
            double x;
            boolean anchorEnd;
            int row;

            int chars() {
                return parts.stream().mapToInt(p -> p[0].length()).sum();
            }
        }

        /** A red band's caption above the lanes, on the first free row. */
        private record BandLabel(Overlap overlap, double from, double to, String text, int row) {
        }

        private List<Label> labels(String lane) {
            List<Label> labels = new ArrayList<>();
            Label current = null;
            for (Event e : events) {
                if (!laneOf(e.actor()).equals(lane)) {
                    continue;
                }
                double x = x(e.at());
                if (current == null || !current.events.get(0).actor().equals(e.actor()) || x - current.x > 2.5) {
                    current = new Label();
                    current.x = x;
                    labels.add(current);
                    String actor = e.actor();
                    if (actor.contains("/")) {
                        current.parts.add(new String[] {actor.substring(actor.indexOf('/') + 1) + ": ", "#5f6368"});
                    }
                } else {
                    current.parts.add(new String[] {" · ", "#9aa0a6"});
                }
                current.events.add(e);
                String stepName = steps.get(e);
                if (stepName != null) {
                    current.parts.add(new String[] {stepName + " ", "#ffffff", "step"});
                }
                String colour = highlighted.contains(e) ? RED : labelColour(e.kind());
                current.parts.add(new String[] {shorten(words(e)), colour, highlighted.contains(e) ? "bold" : ""});
                String holder = intruded.get(e);
                if (holder != null) {
                    current.parts.add(new String[] {" ← " + holder + " held it", RED, "bold"});
                }
            }
            List<Double> rowEnds = new ArrayList<>();
            for (Label label : labels) {
                double width = label.chars() * CHAR + 8;
                double from = label.x;
                double to = label.x + width;
                if (to > WIDTH - 6) {
                    label.anchorEnd = true;
                    from = label.x - width;
                    to = label.x;
                }
                int row = 0;
                while (row < rowEnds.size() && rowEnds.get(row) + 6 > from) {
                    row++;
                }
                if (row == rowEnds.size()) {
                    rowEnds.add(to);
                } else {
                    rowEnds.set(row, to);
                }
                label.row = row;
            }
            return labels;
        }

        private List<BandLabel> bandLabels() {
            List<BandLabel> result = new ArrayList<>();
            List<Double> rowEnds = new ArrayList<>();
            Map<String, Boolean> seen = new LinkedHashMap<>();
            for (Overlap overlap : overlaps) {
                double from = x(overlap.from());
                double to = x(Math.min(overlap.first().to(), overlap.second().to()));
                String text = overlap.first().actor() + " and " + overlap.second().actor() + " both inside";
                if (seen.put(text + Math.round(from), true) != null) {
                    continue;
                }
                double width = text.length() * 7.2 + 8;
                double start = Math.min(from, WIDTH - RIGHT - width);
                int row = 0;
                while (row < rowEnds.size() && rowEnds.get(row) + 6 > start) {
                    row++;
                }
                if (row == rowEnds.size()) {
                    rowEnds.add(start + width);
                } else {
                    rowEnds.set(row, start + width);
                }
                result.add(new BandLabel(overlap, from, to, text, row));
            }
            return result;
        }

        // ---- drawing ------------------------------------------------------------------------

        private void axis(int axisY, int lanesTop, int lanesBottom) {
            svg.append("<g class=\"axis\">\n");
            for (double t = t0; t <= t1 + step / 2; t += step) {
                double x = x(t * 1e6);
                line(x, axisY + 6, x, lanesBottom, "#e8eaed", 1, null);
                svg.append(String.format(Locale.ROOT,
                        "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" font-size=\"11\" fill=\"#5f6368\">%s</text>%n",
                        x, axisY, xml(ms(t))));
            }
            svg.append("</g>\n");
        }

        private void laneBackground(Lane lane, int index) {
            String fill = History.REDIS.equals(lane.name) ? "#eef3fb" : index % 2 == 0 ? "#fafafa" : "#f3f4f6";
            svg.append(String.format(Locale.ROOT,
                    "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\" fill-opacity=\"0.8\"/>%n",
                    LEFT - 84, lane.top, WIDTH - LEFT + 84 - 8, lane.bottom - lane.top, fill));
        }

        private void bands(List<BandLabel> labels, int axisY, int lanesTop, int lanesBottom) {
            svg.append("<g class=\"overlaps\">\n");
            for (BandLabel band : labels) {
                double width = Math.max(band.to() - band.from(), 2);
                svg.append(String.format(Locale.ROOT,
                        "<rect class=\"overlap\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\" "
                                + "fill-opacity=\"0.14\" stroke=\"%s\" stroke-opacity=\"0.7\" stroke-dasharray=\"4 3\">"
                                + "<title>%s</title></rect>%n",
                        band.from(), lanesTop, width, lanesBottom - lanesTop, RED, RED, xml(band.overlap().toString())));
                double textX = Math.min(band.from(), WIDTH - RIGHT - band.text().length() * 7.2 - 8);
                int textY = axisY + 6 + (band.row() + 1) * LABEL_ROW;
                svg.append(String.format(Locale.ROOT,
                        "<text x=\"%.1f\" y=\"%d\" font-size=\"12\" font-weight=\"bold\" fill=\"%s\">%s</text>%n",
                        textX + 2, textY, RED, xml(band.text())));
            }
            svg.append("</g>\n");
        }

        private void nodeBackground(NodeLane node) {
            svg.append(String.format(Locale.ROOT,
                    "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"32\" fill=\"#f6f8fc\" fill-opacity=\"0.8\"/>%n",
                    LEFT - 84, node.top, WIDTH - LEFT + 84 - 8));
        }

        /** A node's lane: its name, then each hold as a bar in its owner's colour, its renewals as ticks, its end as a mark. */
        private void nodeContent(NodeLane node) {
            svg.append("<g class=\"node\" data-node=\"").append(xml(node.name)).append("\">\n");
            text(LEFT - 14, node.bar + 4, node.name, "text-anchor=\"end\" font-size=\"12\" fill=\"#3c4043\"");
            line(LEFT, node.bar, WIDTH - RIGHT, node.bar, "#d2dbe9", 1, "2 4");
            for (Hold hold : ownership.holds()) {
                if (!hold.node().equals(node.name)) {
                    continue;
                }
                double from = x(hold.from());
                double to = Math.max(x(hold.to()), from + 2);
                String colour = ownerColour(hold.owner());
                svg.append(String.format(Locale.ROOT,
                        "<rect class=\"hold\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"12\" fill=\"%s\" "
                                + "fill-opacity=\"0.55\" stroke=\"%s\"><title>%s stores the key for %s from %d ms to %d ms"
                                + "</title></rect>%n",
                        from, node.bar - 6, to - from, colour, colour, xml(node.name), xml(hold.owner()),
                        hold.from() / 1_000_000, hold.to() / 1_000_000));
                if (to - from > hold.owner().length() * 7 + 8) {
                    text(from + 4, node.bar + 4, hold.owner(), "font-size=\"10\" font-weight=\"bold\" fill=\"#202124\"");
                }
                if (hold.end() == Kind.EXPIRED || hold.end() == Kind.DELETED) {
                    svg.append(diamond(to, node.bar, hold.end() == Kind.EXPIRED ? "#00897b" : "#5f6368")).append('\n');
                } else if (hold.end() == Kind.DOWN) {
                    svg.append(cross(to, node.bar, "#8e24aa")).append('\n');
                }
            }
            for (Renewal renewal : ownership.renewals()) {
                if (renewal.node().equals(node.name)) {
                    double x = x(renewal.at());
                    svg.append(String.format(Locale.ROOT,
                            "<line class=\"renewal\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#202124\" "
                                    + "stroke-width=\"2\"><title>renewed at %d ms</title></line>%n",
                            x, node.bar - 9, x, node.bar + 9, renewal.at() / 1_000_000));
                }
            }
            svg.append("</g>\n");
        }

        /** An owner's colour: its client lane's, or the first of several clients sharing the key. */
        private String ownerColour(String owner) {
            int index = lanes.indexOf(owner.split("\\+")[0]);
            return index < 0 ? "#9aa0a6" : LANE_COLOURS[index % LANE_COLOURS.length];
        }

        private void laneContent(Lane lane, int index) {
            String colour = LANE_COLOURS[index % LANE_COLOURS.length];
            boolean redis = History.REDIS.equals(lane.name);
            svg.append("<g class=\"lane\" data-lane=\"").append(xml(lane.name)).append("\">\n");
            text(LEFT - 14, lane.bar + 5, lane.name, "text-anchor=\"end\" font-weight=\"bold\" font-size=\""
                    + (redis ? 14 : 16) + "\" fill=\"" + (redis ? "#3c4043" : colour) + "\"");
            line(LEFT, lane.bar, WIDTH - RIGHT, lane.bar, redis ? "#b6c6e3" : "#dadce0", 1, "2 4");
            for (Section section : Checker.sections(picture.history())) {
                if (!laneOf(section.actor()).equals(lane.name)) {
                    continue;
                }
                double from = x(section.from());
                double to = Math.max(x(section.to()), from + 2);
                svg.append(String.format(Locale.ROOT,
                        "<rect class=\"section\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"14\" rx=\"3\" fill=\"%s\" "
                                + "fill-opacity=\"0.85\"><title>%s inside from %d ms to %d ms</title></rect>%n",
                        from, lane.bar - 7, to - from, colour, xml(section.actor()),
                        section.from() / 1_000_000, section.to() / 1_000_000));
            }
            for (Event e : events) {
                boolean call = e.kind() == Kind.ACQUIRED || e.kind() == Kind.DENIED;
                if (call && laneOf(e.actor()).equals(lane.name) && e.at() - e.since() > 3_000_000) {
                    svg.append(String.format(Locale.ROOT,
                            "<line class=\"waiting\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\" "
                                    + "stroke-width=\"2\" stroke-dasharray=\"2 3\"><title>%s waited %d ms for the lock"
                                    + "</title></line>%n",
                            x(e.since()), lane.bar + 11, x(e.at()), lane.bar + 11, colour, xml(e.actor()),
                            (e.at() - e.since()) / 1_000_000));
                }
            }
            for (Label label : lane.labels) {
                int baseline = lane.bar - 16 - label.row * LABEL_ROW;
                line(label.x, baseline + 3, label.x, lane.bar, "#9aa0a6", 1, null);
            }
            for (Label label : lane.labels) {
                for (Event e : label.events) {
                    mark(e, label.x, lane.bar);
                }
            }
            for (Label label : lane.labels) {
                labelText(label, lane.bar - 16 - label.row * LABEL_ROW);
            }
            svg.append("</g>\n");
        }

        private void labelText(Label label, int baseline) {
            StringBuilder title = new StringBuilder();
            for (Event e : label.events) {
                title.append(title.length() == 0 ? "" : "\n").append(e.millis()).append(" ms  ").append(e.actor())
                        .append(": ").append(e.kind().name().toLowerCase(Locale.ROOT)).append(", ").append(e.detail());
            }
            double x = label.anchorEnd ? label.x - 4 : label.x + 4;
            svg.append(String.format(Locale.ROOT, "<text class=\"label\" x=\"%.1f\" y=\"%d\"%s><title>%s</title>",
                    x, baseline, label.anchorEnd ? " text-anchor=\"end\"" : "", xml(title.toString())));
            for (String[] part : label.parts) {
                String style = part.length > 2 ? part[2] : "";
                if (style.equals("step")) {
                    // A step name (T1..T6): dark badge text on the white halo reads as a tag.
                    svg.append("<tspan fill=\"#202124\" font-weight=\"bold\">").append(xml(part[0])).append("</tspan>");
                    continue;
                }
                svg.append("<tspan fill=\"").append(part[1]).append('"')
                        .append(style.equals("bold") ? " font-weight=\"bold\"" : "").append('>')
                        .append(xml(part[0])).append("</tspan>");
            }
            svg.append("</text>\n");
        }

        private void mark(Event e, double x, int y) {
            if (deadlines.contains(e)) {
                svg.append(String.format(Locale.ROOT,
                        "<line class=\"deadline\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#e37400\" "
                                + "stroke-width=\"2.5\" stroke-dasharray=\"3 2\"/>%n", x, y - 12, x, y + 12));
                return;
            }
            String shape = switch (e.kind()) {
                case ACQUIRED, READ_LOCKED -> circle(x, y, 4.5, "#1e8e3e", null);
                case DENIED -> circle(x, y, 4.5, "#ffffff", "#e37400");
                case ENTER, EXIT, READ_ENTER, READ_EXIT -> String.format(Locale.ROOT,
                        "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#202124\" stroke-width=\"2\"/>",
                        x, y - 9, x, y + 9);
                case UNLOCK -> square(x, y, "#1a73e8", null);
                case UNLOCK_REFUSED -> square(x, y, "#ffffff", "#e37400");
                case LOST -> triangle(x, y, true, "#e37400");
                case EXPIRED -> diamond(x, y, "#00897b");
                case DELETED -> diamond(x, y, "#5f6368");
                case FAULT -> triangle(x, y, false, "#8e24aa");
                case CRASH -> cross(x, y, "#202124");
                case NOTE, HELD, RENEWED, DOWN, FIXTURE -> circle(x, y, 3, "#5f6368", null);
            };
            svg.append("<g class=\"event ").append(e.kind().name().toLowerCase(Locale.ROOT)).append("\">")
                    .append(shape).append("</g>\n");
            if (highlighted.contains(e)) {
                svg.append(String.format(Locale.ROOT,
                        "<circle class=\"violation\" cx=\"%.1f\" cy=\"%d\" r=\"10\" fill=\"none\" stroke=\"%s\" "
                                + "stroke-width=\"2.5\"/>%n", x, y, RED));
            }
        }

        private void verdictBox(int top, int height, List<String> lines) {
            String fill = switch (picture.tone()) {
                case VIOLATION -> "#fce8e6";
                case OK -> "#e6f4ea";
                case BROKEN -> "#f1f3f4";
            };
            String stroke = switch (picture.tone()) {
                case VIOLATION -> RED;
                case OK -> "#188038";
                case BROKEN -> "#5f6368";
            };
            svg.append("<g class=\"verdict\" data-tone=\"").append(picture.tone().name().toLowerCase(Locale.ROOT))
                    .append("\">\n");
            svg.append(String.format(Locale.ROOT,
                    "<rect x=\"16\" y=\"%d\" width=\"%d\" height=\"%d\" rx=\"6\" fill=\"%s\" stroke=\"%s\" "
                            + "stroke-width=\"1.5\"/>%n", top, WIDTH - 32, height, fill, stroke));
            svg.append(String.format(Locale.ROOT, "<text x=\"30\" y=\"%d\" fill=\"#202124\">", top + 24));
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i);
                String dy = i == 0 ? "" : " x=\"30\" dy=\"18\"";
                int colon = i == 0 ? line.indexOf(": ") : -1;
                if (colon > 0) {
                    svg.append("<tspan").append(dy).append(" font-weight=\"bold\" fill=\"").append(stroke).append("\">")
                            .append(xml(line.substring(0, colon + 1))).append("</tspan>")
                            .append("<tspan>").append(xml(line.substring(colon + 1))).append("</tspan>");
                } else {
                    svg.append("<tspan").append(dy).append('>').append(xml(line)).append("</tspan>");
                }
            }
            svg.append("</text>\n</g>\n");
        }

        /** The legend's marks, in two rows when one is too narrow. */
        private static final int LEGEND_ROWS = 2;

        private void legend(int y) {
            svg.append("<g class=\"legend\" font-size=\"11\" fill=\"#5f6368\">\n");
            List<String[]> items = new ArrayList<>();
            items.add(new String[] {"inside the critical section", "bar"});
            items.add(new String[] {"waiting for the lock", "wait"});
            items.add(new String[] {"the key on a node, in its owner's colour", "hold"});
            items.add(new String[] {"renewed", "renewal"});
            items.add(new String[] {"lease over by the holder's clock", "deadline"});
            items.add(new String[] {"locked", "acquired"});
            items.add(new String[] {"gave up", "denied"});
            items.add(new String[] {"unlock", "unlock"});
            items.add(new String[] {"unlock refused", "refused"});
            items.add(new String[] {"told: lease lost", "lost"});
            items.add(new String[] {"key expired", "expired"});
            items.add(new String[] {"key deleted", "deleted"});
            items.add(new String[] {"fault injected", "fault"});
            items.add(new String[] {"crash", "crash"});
            items.add(new String[] {"two clients inside at once", "band"});
            items.add(new String[] {"the violation", "ring"});
            double x = 24;
            int row = y;
            for (String[] item : items) {
                int shapeWidth = item[1].equals("bar") || item[1].equals("band") || item[1].equals("wait")
                        || item[1].equals("hold") ? 26 : 16;
                double width = shapeWidth + item[0].length() * 6.4 + 18;
                if (x + width > WIDTH - 16) {
                    x = 24;
                    row += 20;
                }
                String shape = switch (item[1]) {
                    case "bar" -> String.format(Locale.ROOT,
                            "<rect x=\"%.1f\" y=\"%d\" width=\"22\" height=\"10\" rx=\"2\" fill=\"%s\" "
                                    + "fill-opacity=\"0.85\"/>", x, row - 5, LANE_COLOURS[0]);
                    case "wait" -> String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
                            + "stroke=\"%s\" stroke-width=\"2\" stroke-dasharray=\"2 3\"/>", x, row, x + 22, row,
                            LANE_COLOURS[0]);
                    case "hold" -> String.format(Locale.ROOT,
                            "<rect x=\"%.1f\" y=\"%d\" width=\"22\" height=\"10\" fill=\"%s\" fill-opacity=\"0.55\" "
                                    + "stroke=\"%s\"/>", x, row - 5, LANE_COLOURS[0], LANE_COLOURS[0]);
                    case "renewal" -> String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
                            + "stroke=\"#202124\" stroke-width=\"2\"/>", x + 5, row - 7, x + 5, row + 7);
                    case "deadline" -> String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
                            + "stroke=\"#e37400\" stroke-width=\"2.5\" stroke-dasharray=\"3 2\"/>", x + 5, row - 8, x + 5,
                            row + 8);
                    case "acquired" -> circle(x + 5, row, 4.5, "#1e8e3e", null);
                    case "denied" -> circle(x + 5, row, 4.5, "#ffffff", "#e37400");
                    case "unlock" -> square(x + 5, row, "#1a73e8", null);
                    case "refused" -> square(x + 5, row, "#ffffff", "#e37400");
                    case "lost" -> triangle(x + 5, row, true, "#e37400");
                    case "expired" -> diamond(x + 5, row, "#00897b");
                    case "deleted" -> diamond(x + 5, row, "#5f6368");
                    case "fault" -> triangle(x + 5, row, false, "#8e24aa");
                    case "crash" -> cross(x + 5, row, "#202124");
                    case "band" -> String.format(Locale.ROOT,
                            "<rect x=\"%.1f\" y=\"%d\" width=\"22\" height=\"12\" fill=\"%s\" fill-opacity=\"0.14\" "
                                    + "stroke=\"%s\" stroke-dasharray=\"4 3\"/>", x, row - 6, RED, RED);
                    default -> String.format(Locale.ROOT,
                            "<circle cx=\"%.1f\" cy=\"%d\" r=\"6\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"/>",
                            x + 6, row, RED);
                };
                svg.append(shape).append('\n');
                svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\">%s</text>%n", x + shapeWidth, row + 4,
                        xml(item[0])));
                x += width;
            }
            svg.append("</g>\n");
        }

        // ---- primitives ---------------------------------------------------------------------

        private double x(double nanos) {
            return LEFT + (nanos / 1e6 - t0) / (t1 - t0) * PLOT;
        }

        private void rect(double x, double y, double w, double h, String fill, String stroke) {
            svg.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"%s/>%n",
                    x, y, w, h, fill, stroke == null ? "" : " stroke=\"" + stroke + "\""));
        }

        private void line(double x1, double y1, double x2, double y2, String stroke, double width, String dash) {
            svg.append(String.format(Locale.ROOT,
                    "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"%.1f\"%s/>%n",
                    x1, y1, x2, y2, stroke, width, dash == null ? "" : " stroke-dasharray=\"" + dash + "\""));
        }

        private void text(double x, double y, String text, String attributes) {
            svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" %s>%s</text>%n", x, y, attributes, xml(text)));
        }
    }

    private static String circle(double x, double y, double r, String fill, String stroke) {
        return String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"%s\"%s/>", x, y, r, fill,
                stroke == null ? "" : " stroke=\"" + stroke + "\" stroke-width=\"2\"");
    }

    private static String square(double x, double y, String fill, String stroke) {
        return String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%.1f\" width=\"8\" height=\"8\" fill=\"%s\"%s/>",
                x - 4, y - 4, fill, stroke == null ? "" : " stroke=\"" + stroke + "\" stroke-width=\"2\"");
    }

    private static String diamond(double x, double y, String fill) {
        return String.format(Locale.ROOT, "<path d=\"M%.1f %.1fl5.5 5.5l-5.5 5.5l-5.5 -5.5z\" fill=\"%s\"/>",
                x, y - 5.5, fill);
    }

    private static String triangle(double x, double y, boolean up, String fill) {
        return up
                ? String.format(Locale.ROOT, "<path d=\"M%.1f %.1fl6 10h-12z\" fill=\"%s\"/>", x, y - 6, fill)
                : String.format(Locale.ROOT, "<path d=\"M%.1f %.1fl6 -10h-12z\" fill=\"%s\"/>", x, y + 6, fill);
    }

    private static String cross(double x, double y, String stroke) {
        return String.format(Locale.ROOT,
                "<path d=\"M%.1f %.1fl10 10M%.1f %.1fl-10 10\" stroke=\"%s\" stroke-width=\"3\"/>",
                x - 5, y - 5, x + 5, y - 5, stroke);
    }

    /** The words an event's label shows. */
    static String words(Event e) {
        return switch (e.kind()) {
            case DENIED -> "no lock: " + e.detail();
            default -> e.detail();
        };
    }

    private static String labelColour(Kind kind) {
        return switch (kind) {
            case ACQUIRED, READ_LOCKED -> "#1e7e34";
            case DENIED, UNLOCK_REFUSED, LOST -> "#b06000";
            case FAULT, CRASH -> "#8e24aa";
            case EXPIRED -> "#00695c";
            case DELETED -> "#5f6368";
            case ENTER, EXIT, READ_ENTER, READ_EXIT, UNLOCK, NOTE, HELD, RENEWED, DOWN, FIXTURE -> "#202124";
        };
    }

    private static String laneOf(String actor) {
        int slash = actor.indexOf('/');
        return slash < 0 ? actor : actor.substring(0, slash);
    }

    private static String shorten(String text) {
        return text.length() <= MAX_PART ? text : text.substring(0, MAX_PART - 1) + "…";
    }

    /** A tick step of 1, 2 or 5 times a power of ten that cuts {@code span} ms into at most 12 pieces. */
    static double niceStep(double span) {
        double power = Math.pow(10, Math.floor(Math.log10(span / 12)));
        for (double factor : new double[] {1, 2, 5, 10}) {
            if (span / (factor * power) <= 12) {
                return factor * power;
            }
        }
        return 10 * power;
    }

    private static String ms(double t) {
        return t == Math.rint(t) ? String.format(Locale.ROOT, "%d ms", (long) t) : String.format(Locale.ROOT, "%.1f ms", t);
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

    /**
     * {@code text} safe inside an XML element or a double-quoted attribute: markup characters escaped,
     * characters XML 1.0 forbids (controls from an exception message, say) dropped.
     */
    static String xml(String text) {
        StringBuilder out = new StringBuilder(text.length());
        text.codePoints().forEach(c -> {
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&apos;");
                default -> {
                    boolean allowed = c == '\t' || c == '\n' || c == '\r' || c >= 0x20 && c <= 0xD7FF
                            || c >= 0xE000 && c <= 0xFFFD || c >= 0x10000 && c <= 0x10FFFF;
                    if (allowed) {
                        out.appendCodePoint(c);
                    }
                }
            }
        });
        return out.toString();
    }
}
