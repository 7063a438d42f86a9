package dev.lockstep.lab;

import static dev.lockstep.lab.SvgShapes.LANE_COLOURS;
import static dev.lockstep.lab.SvgShapes.RED;
import static dev.lockstep.lab.SvgShapes.line;
import static dev.lockstep.lab.SvgShapes.text;
import static dev.lockstep.lab.SvgShapes.xml;
import static dev.lockstep.lab.TimelineLayout.LEFT;
import static dev.lockstep.lab.TimelineLayout.RIGHT;
import static dev.lockstep.lab.TimelineLayout.WIDTH;

import dev.lockstep.lab.TimelineLayout.Band;
import dev.lockstep.lab.TimelineLayout.Lane;
import dev.lockstep.lab.TimelineLayout.NodeLane;
import dev.lockstep.lab.TimelineLayout.Spot;
import dev.lockstep.lab.TimelineLayout.Stretch;
import dev.lockstep.testkit.history.Checker.Section;
import dev.lockstep.testkit.history.History;
import dev.lockstep.testkit.history.History.Event;
import dev.lockstep.testkit.history.History.Kind;
import dev.lockstep.testkit.history.KeyOwnership.Hold;
import dev.lockstep.testkit.history.KeyOwnership.Renewal;
import java.util.Locale;

/**
 * Writes the plot of a timeline picture as SVG text: the time axis, the lanes' and node lanes'
 * backgrounds, the red bands, then each lane's bars, marks and labels. Backgrounds go first so that
 * no lane's background covers a band or a neighbour's label.
 */
final class SvgLanes {

    private final StringBuilder svg;
    private final TimelineContent content;
    private final TimelineLayout layout;

    private SvgLanes(StringBuilder svg, TimelineContent content, TimelineLayout layout) {
        this.svg = svg;
        this.content = content;
        this.layout = layout;
    }

    /** Appends the plot of {@code content}, placed by {@code layout}, to {@code svg}. */
    static void write(StringBuilder svg, TimelineContent content, TimelineLayout layout) {
        new SvgLanes(svg, content, layout).write();
    }

    private void write() {
        axis();
        for (Lane lane : layout.lanes()) {
            String fill = History.REDIS.equals(lane.name()) ? "#eef3fb" : lane.index() % 2 == 0 ? "#fafafa" : "#f3f4f6";
            svg.append(String.format(Locale.ROOT,
                    "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\" fill-opacity=\"0.8\"/>%n",
                    LEFT - 84, lane.top(), WIDTH - LEFT + 84 - 8, lane.bottom() - lane.top(), fill));
        }
        for (NodeLane node : layout.nodes()) {
            svg.append(String.format(Locale.ROOT,
                    "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"32\" fill=\"#f6f8fc\" fill-opacity=\"0.8\"/>%n",
                    LEFT - 84, node.top(), WIDTH - LEFT + 84 - 8));
        }
        bands();
        layout.lanes().forEach(this::lane);
        layout.nodes().forEach(this::node);
    }

    private void axis() {
        svg.append("<g class=\"axis\">\n");
        for (TimeScale.Tick tick : layout.scale().ticks()) {
            svg.append(line(tick.x(), layout.axisY() + 6, tick.x(), layout.lanesBottom(), "#e8eaed", 1, null));
            svg.append(String.format(Locale.ROOT,
                    "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" font-size=\"11\" fill=\"#5f6368\">%s</text>%n",
                    tick.x(), layout.axisY(), xml(ms(tick.millis()))));
        }
        svg.append("</g>\n");
    }

    private void bands() {
        svg.append("<g class=\"overlaps\">\n");
        int top = layout.lanesTop();
        for (Band band : layout.bands()) {
            double width = Math.max(band.to() - band.from(), 2);
            svg.append(String.format(Locale.ROOT,
                    "<rect class=\"overlap\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\" "
                            + "fill-opacity=\"0.14\" stroke=\"%s\" stroke-opacity=\"0.7\" stroke-dasharray=\"4 3\">"
                            + "<title>%s</title></rect>%n",
                    band.from(), top, width, layout.lanesBottom() - top, RED, RED, xml(band.overlap().toString())));
            svg.append(String.format(Locale.ROOT,
                    "<text x=\"%.1f\" y=\"%d\" font-size=\"12\" font-weight=\"bold\" fill=\"%s\">%s</text>%n",
                    band.textX() + 2, band.textY(), RED, xml(band.text())));
        }
        svg.append("</g>\n");
    }

    /** A lane: its name, its critical sections as bars, its waits, then its labels' stems, marks and texts. */
    private void lane(Lane lane) {
        String colour = LANE_COLOURS[lane.index() % LANE_COLOURS.length];
        boolean redis = History.REDIS.equals(lane.name());
        int bar = lane.bar();
        svg.append("<g class=\"lane\" data-lane=\"").append(xml(lane.name())).append("\">\n");
        svg.append(text(LEFT - 14, bar + 5, lane.name(), "text-anchor=\"end\" font-weight=\"bold\" font-size=\""
                + (redis ? 14 : 16) + "\" fill=\"" + (redis ? "#3c4043" : colour) + "\""));
        svg.append(line(LEFT, bar, WIDTH - RIGHT, bar, redis ? "#b6c6e3" : "#dadce0", 1, "2 4"));
        for (Stretch<Section> section : lane.sections()) {
            svg.append(String.format(Locale.ROOT,
                    "<rect class=\"section\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"14\" rx=\"3\" fill=\"%s\" "
                            + "fill-opacity=\"0.85\"><title>%s inside from %d ms to %d ms</title></rect>%n",
                    section.from(), bar - 7, section.to() - section.from(), colour, xml(section.what().actor()),
                    section.what().from() / 1_000_000, section.what().to() / 1_000_000));
        }
        for (Stretch<Event> wait : lane.waits()) {
            Event e = wait.what();
            svg.append(String.format(Locale.ROOT,
                    "<line class=\"waiting\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\" "
                            + "stroke-width=\"2\" stroke-dasharray=\"2 3\"><title>%s waited %d ms for the lock"
                            + "</title></line>%n",
                    wait.from(), bar + 11, wait.to(), bar + 11, colour, xml(e.actor()), (e.at() - e.since()) / 1_000_000));
        }
        for (LaneLabel label : lane.labels()) {
            svg.append(line(label.x(), lane.baseline(label) + 3, label.x(), bar, "#9aa0a6", 1, null));
        }
        for (LaneLabel label : lane.labels()) {
            for (Event e : label.events()) {
                mark(e, label.x(), bar);
            }
        }
        for (LaneLabel label : lane.labels()) {
            labelText(label, lane.baseline(label));
        }
        svg.append("</g>\n");
    }

    private void mark(Event e, double x, int y) {
        if (content.isDeadline(e)) {
            svg.append(String.format(Locale.ROOT,
                    "<line class=\"deadline\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#e37400\" "
                            + "stroke-width=\"2.5\" stroke-dasharray=\"3 2\"/>%n", x, y - 12, x, y + 12));
            return;
        }
        svg.append("<g class=\"event ").append(e.kind().name().toLowerCase(Locale.ROOT)).append("\">")
                .append(SvgShapes.mark(e.kind(), x, y)).append("</g>\n");
        if (content.isHighlighted(e)) {
            svg.append(String.format(Locale.ROOT,
                    "<circle class=\"violation\" cx=\"%.1f\" cy=\"%d\" r=\"10\" fill=\"none\" stroke=\"%s\" "
                            + "stroke-width=\"2.5\"/>%n", x, y, RED));
        }
    }

    /** A label's text, with every event it names, in full, as its tooltip. */
    private void labelText(LaneLabel label, int baseline) {
        StringBuilder title = new StringBuilder();
        for (Event e : label.events()) {
            title.append(title.length() == 0 ? "" : "\n").append(e.millis()).append(" ms  ").append(e.actor())
                    .append(": ").append(e.kind().name().toLowerCase(Locale.ROOT)).append(", ").append(e.detail());
        }
        double x = label.anchorEnd() ? label.x() - 4 : label.x() + 4;
        svg.append(String.format(Locale.ROOT, "<text class=\"label\" x=\"%.1f\" y=\"%d\"%s><title>%s</title>",
                x, baseline, label.anchorEnd() ? " text-anchor=\"end\"" : "", xml(title.toString())));
        for (Part part : label.parts()) {
            svg.append("<tspan fill=\"").append(part.colour()).append('"')
                    .append(part.bold() ? " font-weight=\"bold\"" : "").append('>')
                    .append(xml(part.text())).append("</tspan>");
        }
        svg.append("</text>\n");
    }

    /** A node's lane: its name, then each hold as a bar in its owner's colour, its renewals as ticks, its end as a mark. */
    private void node(NodeLane node) {
        int bar = node.bar();
        svg.append("<g class=\"node\" data-node=\"").append(xml(node.name())).append("\">\n");
        svg.append(text(LEFT - 14, bar + 4, node.name(), "text-anchor=\"end\" font-size=\"12\" fill=\"#3c4043\""));
        svg.append(line(LEFT, bar, WIDTH - RIGHT, bar, "#d2dbe9", 1, "2 4"));
        for (Stretch<Hold> stretch : node.holds()) {
            Hold hold = stretch.what();
            double from = stretch.from();
            double to = stretch.to();
            String colour = ownerColour(hold.owner());
            svg.append(String.format(Locale.ROOT,
                    "<rect class=\"hold\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"12\" fill=\"%s\" "
                            + "fill-opacity=\"0.55\" stroke=\"%s\"><title>%s stores the key for %s from %d ms to %d ms"
                            + "</title></rect>%n",
                    from, bar - 6, to - from, colour, colour, xml(node.name()), xml(hold.owner()),
                    hold.from() / 1_000_000, hold.to() / 1_000_000));
            if (to - from > hold.owner().length() * 7 + 8) {
                svg.append(text(from + 4, bar + 4, hold.owner(), "font-size=\"10\" font-weight=\"bold\" fill=\"#202124\""));
            }
            if (hold.end() == Kind.EXPIRED || hold.end() == Kind.DELETED) {
                svg.append(SvgShapes.diamond(to, bar, hold.end() == Kind.EXPIRED ? "#00897b" : "#5f6368")).append('\n');
            } else if (hold.end() == Kind.DOWN) {
                svg.append(SvgShapes.cross(to, bar, "#8e24aa")).append('\n');
            }
        }
        for (Spot<Renewal> renewal : node.renewals()) {
            svg.append(String.format(Locale.ROOT,
                    "<line class=\"renewal\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#202124\" "
                            + "stroke-width=\"2\"><title>renewed at %d ms</title></line>%n",
                    renewal.x(), bar - 9, renewal.x(), bar + 9, renewal.what().at() / 1_000_000));
        }
        svg.append("</g>\n");
    }

    /** An owner's colour: its client lane's, or the first of several clients sharing the key. */
    private String ownerColour(String owner) {
        int index = content.lanes().indexOf(owner.split("\\+")[0]);
        return index < 0 ? "#9aa0a6" : LANE_COLOURS[index % LANE_COLOURS.length];
    }

    private static String ms(double t) {
        return t == Math.rint(t) ? String.format(Locale.ROOT, "%d ms", (long) t) : String.format(Locale.ROOT, "%.1f ms", t);
    }
}
