package dev.lockstep.testkit.history;

import java.util.ArrayList;
import java.util.List;

/**
 * Writes the lines of a text timeline: cells padded to their columns, labels wrapped onto continuation
 * lines, trailing blanks trimmed, and with {@code ansi} each text wrapped in its style's escape codes.
 */
final class TimelineWriter {

    private final TimelineColumns columns;
    private final TimelineStyle style;
    private final boolean ansi;
    private final StringBuilder out = new StringBuilder();

    TimelineWriter(TimelineColumns columns, TimelineStyle style, boolean ansi) {
        this.columns = columns;
        this.style = style;
        this.ansi = ansi;
    }

    /** One event row, continued on extra rows while a label is longer than its column. */
    void wrapped(String time, TimelineCell marker, List<TimelineCell> cells) {
        List<TimelineCell> rest = new ArrayList<>(cells);
        boolean first = true;
        while (first || rest.stream().anyMatch(c -> !c.text().isEmpty())) {
            List<TimelineCell> now = new ArrayList<>();
            for (int i = 0; i < rest.size(); i++) {
                TimelineCell cell = rest.get(i);
                int width = columns.width(i);
                String text = cell.text();
                int cut = text.length() <= width ? text.length() : breakAt(text, width);
                now.add(new TimelineCell(first || !text.isEmpty() ? text.substring(0, cut) : cell.carried(),
                        cell.style()));
                String left = text.substring(cut).stripLeading();
                rest.set(i, new TimelineCell(left, cell.style(), cell.carried()));
            }
            if (!first) {
                // Continuation rows carry the bars on, and nothing else that was already drawn.
                for (int i = 0; i < now.size(); i++) {
                    if (now.get(i).text().isEmpty()) {
                        TimelineCell cell = rest.get(i);
                        now.set(i, new TimelineCell(cell.carried(), cell.carriesBar() ? cells.get(i).style()
                                : style.owner(cell.carried())));
                    }
                }
            }
            line(first ? new TimelineCell(time, null) : TimelineCell.EMPTY, first ? marker : TimelineCell.EMPTY, now);
            first = false;
        }
    }

    /**
     * One line: the time, the marker, the columns padded to their widths, trailing blanks trimmed.
     * With {@code ansi}, each non-blank text is wrapped in its style after padding and trimming,
     * so the codes never count towards a column's width.
     */
    void line(TimelineCell time, TimelineCell marker, List<TimelineCell> cells) {
        StringBuilder line = new StringBuilder();
        List<int[]> spans = new ArrayList<>();
        List<String> styles = new ArrayList<>();
        append(line, String.format("%6s", time.text()), time, spans, styles);
        append(line, String.format("  %-2s  ", marker.text()), marker, spans, styles);
        for (int i = 0; i < cells.size(); i++) {
            append(line, String.format("%-" + columns.width(i) + "s  ", cells.get(i).text()), cells.get(i), spans,
                    styles);
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
                    line.insert(to, TimelineStyle.RESET).insert(from, styles.get(i));
                }
            }
        }
        out.append(line).append('\n');
    }

    /** A blank line, then {@code lines}; nothing when there are none. */
    void paragraph(List<String> lines) {
        if (!lines.isEmpty()) {
            out.append('\n');
            for (String text : lines) {
                out.append(text).append('\n');
            }
        }
    }

    /** Everything written so far. */
    String text() {
        return out.toString();
    }

    /** Where a label too long for {@code width} is cut: at its last blank past half the width, else mid-word. */
    private static int breakAt(String text, int width) {
        int space = text.lastIndexOf(' ', width);
        return space > width / 2 ? space : width;
    }

    /** Appends {@code padded}, remembering where {@code cell}'s own text sits in it when it has a style. */
    private static void append(StringBuilder line, String padded, TimelineCell cell, List<int[]> spans,
            List<String> styles) {
        int start = line.length() + padded.indexOf(cell.text());
        line.append(padded);
        if (cell.style() != null && !cell.text().isBlank()) {
            spans.add(new int[] {start, start + cell.text().length()});
            styles.add(cell.style());
        }
    }
}
