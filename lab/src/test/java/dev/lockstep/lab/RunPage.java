package dev.lockstep.lab;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What one page of a lab run says about that run: the times of its timeline's rows, every number
 * on it, and every number with the unit written after it ({@code 2 ms}, {@code 6.1 requests}). A
 * doc quoting the run is held to these, so that a figure changed by hand is one the run does not have.
 */
final class RunPage {

    /** A number, commas dropped first: not part of a name such as {@code v3} or {@code w8}. */
    static final Pattern NUMBER = Pattern.compile("(?<![\\w.])\\d+(?:\\.\\d+)?");
    /** The units a run figure is quoted in; any other word after a number is not a unit. */
    static final Pattern UNIT = Pattern.compile(" ?(ms|µs|s|%|requests|commands)(?!\\w)");
    private static final Pattern TEXT_BLOCK = Pattern.compile("```text\\n(.*?)```", Pattern.DOTALL);
    /** A timeline row's time: the first column, right-aligned in six characters. */
    private static final Pattern ROW_TIME = Pattern.compile("(?m)^ {0,5}(\\d+) ");

    private final Set<String> times = new HashSet<>();
    private final Set<String> numbers = new HashSet<>();
    private final Set<String> figures = new HashSet<>();

    private RunPage(String text) {
        String page = withoutThousands(text);
        StringBuilder cells = new StringBuilder();
        Matcher block = TEXT_BLOCK.matcher(page);
        while (block.find()) {
            Matcher time = ROW_TIME.matcher(block.group(1));
            while (time.find()) {
                times.add(time.group(1));
            }
            cells(block.group(1)).forEach(cell -> cells.append(cell).append('\n'));
        }
        // A timeline cell wraps a long figure ("gave up after 639" on one line, "ms" on the next):
        // its figures are read from the cell's text joined, besides the page as written.
        page = page + "\n" + cells;
        Matcher number = NUMBER.matcher(page);
        while (number.find()) {
            numbers.add(number.group());
            String unit = unitAfter(page, number);
            if (unit != null) {
                figures.add(number.group() + " " + unit);
            }
        }
    }

    /** The page at {@code file}, or null when there is none. */
    static RunPage read(Path file) {
        if (!Files.exists(file)) {
            return null;
        }
        try {
            return new RunPage(Files.readString(file));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Whether the run has {@code number} in {@code unit}: a row's time for ms, else that figure on the page; any number when there is no unit. */
    boolean has(String number, String unit) {
        if (unit == null) {
            return numbers.contains(number);
        }
        return figures.contains(number + " " + unit) || unit.equals("ms") && times.contains(number);
    }

    /** Whether {@code number} is anywhere on the page. */
    boolean has(String number) {
        return numbers.contains(number);
    }

    /** The text of each cell of a timeline, its wrapped lines joined; none when it is no timeline. */
    private static List<String> cells(String timeline) {
        List<String> lines = timeline.lines().toList();
        List<String> cells = new ArrayList<>();
        if (lines.size() < 3 || !lines.get(1).startsWith("------")) {
            return cells;
        }
        List<int[]> columns = new ArrayList<>();
        Matcher rule = Pattern.compile("-+").matcher(lines.get(1));
        while (rule.find()) {
            columns.add(new int[] {rule.start(), rule.hitEnd() ? Integer.MAX_VALUE : rule.end()});
        }
        List<StringBuilder> row = new ArrayList<>();
        for (String line : lines.subList(2, lines.size())) {
            if (line.isBlank()) {
                break;
            }
            if (!line.substring(0, Math.min(6, line.length())).isBlank()) {
                row.forEach(cell -> cells.add(cell.toString().strip().replaceAll("\\s+", " ")));
                row.clear();
                columns.forEach(column -> row.add(new StringBuilder()));
            }
            for (int i = 0; i < columns.size() && i < row.size(); i++) {
                int[] column = columns.get(i);
                if (line.length() > column[0]) {
                    row.get(i).append(' ').append(line, column[0], Math.min(line.length(), column[1])).append(' ');
                }
            }
        }
        row.forEach(cell -> cells.add(cell.toString().strip().replaceAll("\\s+", " ")));
        return cells;
    }

    /** The unit written right after {@code number}'s match in {@code text}, or null. */
    static String unitAfter(String text, Matcher number) {
        Matcher unit = UNIT.matcher(text).region(number.end(), text.length());
        return unit.lookingAt() ? unit.group(1) : null;
    }

    /** {@code text} with the thousands separators of its numbers dropped. */
    static String withoutThousands(String text) {
        return text.replaceAll("(\\d),(\\d{3})", "$1$2");
    }
}
