package dev.lockstep.lab;

import dev.lockstep.lab.Legend.Key;
import dev.lockstep.testkit.history.History.Kind;
import java.util.Locale;

/**
 * The SVG elements a timeline picture is made of, as text: the colours, the plain elements, an event's
 * mark by its kind, a legend key's mark, and XML escaping. Plain string building, no library: the
 * picture is a few hundred rectangles, lines and texts with fixed geometry, and an SVG library (Batik,
 * JFreeSVG) would add megabytes to the jar and nothing this needs.
 */
final class SvgShapes {

    /** A lane's colour, by its place among the lanes; a node's bar takes its owner's. */
    static final String[] LANE_COLOURS = {"#5b8def", "#43a047", "#f9a825", "#8e63ce", "#00acc1", "#ef6c9c"};
    /** The violation's colour. */
    static final String RED = "#d93025";

    private SvgShapes() {
    }

    /** A rectangle, with a stroke unless {@code stroke} is null. */
    static String rect(double x, double y, double w, double h, String fill, String stroke) {
        return String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"%s/>%n",
                x, y, w, h, fill, stroke == null ? "" : " stroke=\"" + stroke + "\"");
    }

    /** A line, dashed unless {@code dash} is null. */
    static String line(double x1, double y1, double x2, double y2, String stroke, double width, String dash) {
        return String.format(Locale.ROOT,
                "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"%.1f\"%s/>%n",
                x1, y1, x2, y2, stroke, width, dash == null ? "" : " stroke-dasharray=\"" + dash + "\"");
    }

    /** A text with {@code attributes} written as they are. */
    static String text(double x, double y, String text, String attributes) {
        return String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" %s>%s</text>%n", x, y, attributes, xml(text));
    }

    /** The mark of an event of {@code kind} at {@code x}, {@code y}. */
    static String mark(Kind kind, double x, int y) {
        return switch (kind) {
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
    }

    /** The mark of legend key {@code key} starting at {@code x}, centred on {@code y}. */
    static String mark(Key key, double x, int y) {
        return switch (key) {
            case BAR -> String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%d\" width=\"22\" height=\"10\" rx=\"2\" "
                    + "fill=\"%s\" fill-opacity=\"0.85\"/>", x, y - 5, LANE_COLOURS[0]);
            case WAIT -> String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\" "
                    + "stroke-width=\"2\" stroke-dasharray=\"2 3\"/>", x, y, x + 22, y, LANE_COLOURS[0]);
            case HOLD -> String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%d\" width=\"22\" height=\"10\" fill=\"%s\" "
                    + "fill-opacity=\"0.55\" stroke=\"%s\"/>", x, y - 5, LANE_COLOURS[0], LANE_COLOURS[0]);
            case RENEWAL -> String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
                    + "stroke=\"#202124\" stroke-width=\"2\"/>", x + 5, y - 7, x + 5, y + 7);
            case DEADLINE -> String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
                    + "stroke=\"#e37400\" stroke-width=\"2.5\" stroke-dasharray=\"3 2\"/>", x + 5, y - 8, x + 5, y + 8);
            case ACQUIRED -> circle(x + 5, y, 4.5, "#1e8e3e", null);
            case DENIED -> circle(x + 5, y, 4.5, "#ffffff", "#e37400");
            case UNLOCK -> square(x + 5, y, "#1a73e8", null);
            case REFUSED -> square(x + 5, y, "#ffffff", "#e37400");
            case LOST -> triangle(x + 5, y, true, "#e37400");
            case EXPIRED -> diamond(x + 5, y, "#00897b");
            case DELETED -> diamond(x + 5, y, "#5f6368");
            case FAULT -> triangle(x + 5, y, false, "#8e24aa");
            case CRASH -> cross(x + 5, y, "#202124");
            case BAND -> String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%d\" width=\"22\" height=\"12\" fill=\"%s\" "
                    + "fill-opacity=\"0.14\" stroke=\"%s\" stroke-dasharray=\"4 3\"/>", x, y - 6, RED, RED);
            case RING -> String.format(Locale.ROOT,
                    "<circle cx=\"%.1f\" cy=\"%d\" r=\"6\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"/>", x + 6, y, RED);
        };
    }

    /** A diamond centred on {@code x}, {@code y}: a key expired or deleted. */
    static String diamond(double x, double y, String fill) {
        return String.format(Locale.ROOT, "<path d=\"M%.1f %.1fl5.5 5.5l-5.5 5.5l-5.5 -5.5z\" fill=\"%s\"/>",
                x, y - 5.5, fill);
    }

    /** A cross centred on {@code x}, {@code y}: a crash, or a node going down. */
    static String cross(double x, double y, String stroke) {
        return String.format(Locale.ROOT,
                "<path d=\"M%.1f %.1fl10 10M%.1f %.1fl-10 10\" stroke=\"%s\" stroke-width=\"3\"/>",
                x - 5, y - 5, x + 5, y - 5, stroke);
    }

    private static String circle(double x, double y, double r, String fill, String stroke) {
        return String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"%s\"%s/>", x, y, r, fill,
                stroke == null ? "" : " stroke=\"" + stroke + "\" stroke-width=\"2\"");
    }

    private static String square(double x, double y, String fill, String stroke) {
        return String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%.1f\" width=\"8\" height=\"8\" fill=\"%s\"%s/>",
                x - 4, y - 4, fill, stroke == null ? "" : " stroke=\"" + stroke + "\" stroke-width=\"2\"");
    }

    private static String triangle(double x, double y, boolean up, String fill) {
        return up
                ? String.format(Locale.ROOT, "<path d=\"M%.1f %.1fl6 10h-12z\" fill=\"%s\"/>", x, y - 6, fill)
                : String.format(Locale.ROOT, "<path d=\"M%.1f %.1fl6 -10h-12z\" fill=\"%s\"/>", x, y + 6, fill);
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
