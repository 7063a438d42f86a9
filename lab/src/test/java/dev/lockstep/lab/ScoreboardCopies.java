package dev.lockstep.lab;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The scoreboard tables copied into the docs, checked against the committed lab run's
 * {@code docs/results/scoreboard.md}: a table whose header starts like the scoreboard's must have
 * its header, and each of its rows must be that stage's row, cell for cell.
 */
final class ScoreboardCopies {

    private static final String SCOREBOARD = "docs/results/scoreboard.md";
    private static final String HEADER_START = "| stage | crash-holder |";

    private final Path root;
    private final String header;
    private final String separator;
    /** The committed rows by stage, in the scoreboard's order. */
    private final Map<String, String> rows = new LinkedHashMap<>();
    private final List<String> problems = new ArrayList<>();
    private int copiedRows;

    ScoreboardCopies(Path root) {
        this.root = root;
        List<String> lines = lines(root.resolve(SCOREBOARD));
        this.header = lines.get(0);
        this.separator = lines.get(1);
        lines.stream().skip(2).filter(line -> line.startsWith("| ")).forEach(line -> rows.put(stage(line), line));
    }

    /** Checks every scoreboard table of {@code page}; a lesson ({@code stage} not null) must show that stage's row. */
    void check(Path page, String stage) {
        String where = root.relativize(page).toString();
        List<String> lines = lines(page);
        List<String> shown = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            if (!lines.get(i).startsWith(HEADER_START)) {
                continue;
            }
            if (!lines.get(i).equals(header) || i + 1 == lines.size() || !lines.get(i + 1).equals(separator)) {
                problems.add(where + ":" + (i + 1) + ": the scoreboard's header is now\n" + header + "\n" + separator);
            }
            for (int row = i + 2; row < lines.size() && lines.get(row).startsWith("|"); row++) {
                copiedRows++;
                String line = lines.get(row);
                shown.add(stage(line));
                String committed = rows.get(stage(line));
                if (!line.equals(committed)) {
                    problems.add(where + ":" + (row + 1) + ": " + (committed == null
                            ? "no stage " + stage(line) + " in " + SCOREBOARD
                            : "the committed row is now\n" + committed));
                }
            }
        }
        if (stage != null && !shown.contains(stage)) {
            problems.add(where + ": shows no scoreboard row of " + stage + "; the committed one, with its header:\n"
                    + header + "\n" + separator + "\n" + rows.get(stage));
        }
    }

    /** The copies that differ from the committed scoreboard, each with the committed text. */
    List<String> problems() {
        return problems;
    }

    /** How many copied rows were checked. */
    int copiedRows() {
        return copiedRows;
    }

    private static String stage(String row) {
        return row.substring(1, row.indexOf('|', 1)).strip();
    }

    private static List<String> lines(Path file) {
        try {
            return Files.readAllLines(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
