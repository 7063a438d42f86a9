package dev.lockstep.lab;

import static dev.lockstep.lab.SvgShapes.RED;
import static dev.lockstep.lab.SvgShapes.text;
import static dev.lockstep.lab.SvgShapes.xml;
import static dev.lockstep.lab.TimelineLayout.WIDTH;

import dev.lockstep.testkit.history.History;
import dev.lockstep.testkit.history.History.Event;
import dev.lockstep.testkit.scenario.Outcome;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Draws one outcome's recorded history as an SVG picture: time runs left to right, one swimlane per
 * client, then one per Redis node, then one for what Redis reports. Critical sections are bars in the
 * client's colour; a node's lane shows whom it stores the key for as a bar in that owner's colour,
 * with a tick per renewal; a dashed line marks where a holder's lease ran out by its own clock. Every
 * event is a labelled tick with a mark for its kind, the stretches where two clients were inside at
 * once are red bands, an acquisition made while another client held the lock is ringed in red, and
 * the verdict is one sentence below.
 *
 * <p>Three steps: {@link TimelineContent} picks what to show, {@link TimelineLayout} places it, and
 * this class with {@link SvgLanes} writes the layout out as text.
 */
final class SvgTimeline {

    private static final String SANS = "'DejaVu Sans', 'Segoe UI', Helvetica, Arial, sans-serif";
    private static final String MONO = "'DejaVu Sans Mono', Menlo, Consolas, 'Liberation Mono', monospace";

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
        TimelineContent content = new TimelineContent(picture);
        TimelineLayout layout = TimelineLayout.of(content);
        int height = layout.height();
        StringBuilder svg = new StringBuilder();
        svg.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        svg.append(String.format(Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
                        + "font-family=\"%s\" font-size=\"13\">%n", WIDTH, height, WIDTH, height, SANS));
        svg.append("<title>").append(xml(picture.title())).append("</title>\n");
        svg.append("<desc>").append(xml(picture.story() + " " + content.verdictLine())).append("</desc>\n");
        svg.append("<style>text.label{font-family:").append(MONO).append(";font-size:").append(TimelineLayout.LABEL_FONT)
                .append("px;paint-order:stroke;stroke:#fff;stroke-width:3px;stroke-linejoin:round}</style>\n");
        svg.append(SvgShapes.rect(0, 0, WIDTH, height, "#ffffff", null));
        svg.append(text(24, layout.titleY(), picture.title(), "font-size=\"19\" font-weight=\"bold\" fill=\"#202124\""));
        svg.append(text(24, layout.claimY(), picture.claim(), "fill=\"#5f6368\""));
        for (int i = 0; i < layout.story().size(); i++) {
            svg.append(text(24, layout.storyY() + 18 * i, layout.story().get(i), "fill=\"#202124\""));
        }
        SvgLanes.write(svg, content, layout);
        if (content.events().isEmpty()) {
            svg.append(text(TimelineLayout.LEFT, layout.lanesTop() + 20, "(no events were recorded)", "fill=\"#5f6368\""));
        }
        verdictBox(svg, picture.tone(), layout);
        legend(svg, layout.legend());
        svg.append("</svg>\n");
        return svg.toString();
    }

    /** The verdict in a box in the tone's colours, its head ({@code VIOLATION:}) bold. */
    private static void verdictBox(StringBuilder svg, Tone tone, TimelineLayout layout) {
        String fill = switch (tone) {
            case VIOLATION -> "#fce8e6";
            case OK -> "#e6f4ea";
            case BROKEN -> "#f1f3f4";
        };
        String stroke = switch (tone) {
            case VIOLATION -> RED;
            case OK -> "#188038";
            case BROKEN -> "#5f6368";
        };
        int top = layout.verdictTop();
        List<String> lines = layout.verdict();
        svg.append("<g class=\"verdict\" data-tone=\"").append(tone.name().toLowerCase(Locale.ROOT)).append("\">\n");
        svg.append(String.format(Locale.ROOT,
                "<rect x=\"16\" y=\"%d\" width=\"%d\" height=\"%d\" rx=\"6\" fill=\"%s\" stroke=\"%s\" "
                        + "stroke-width=\"1.5\"/>%n", top, WIDTH - 32, layout.verdictHeight(), fill, stroke));
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

    private static void legend(StringBuilder svg, List<Legend.Placed> keys) {
        svg.append("<g class=\"legend\" font-size=\"11\" fill=\"#5f6368\">\n");
        for (Legend.Placed placed : keys) {
            svg.append(SvgShapes.mark(placed.key(), placed.x(), placed.y())).append('\n');
            svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\">%s</text>%n",
                    placed.x() + placed.key().markWidth(), placed.y() + 4, xml(placed.key().text())));
        }
        svg.append("</g>\n");
    }
}
