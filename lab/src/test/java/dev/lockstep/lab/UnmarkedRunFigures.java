package dev.lockstep.lab;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Paragraphs that quote a lab run without a marker, so that {@link QuotedFigures} would not check
 * them: a paragraph that names a run (links a page or picture of {@code docs/results}, or speaks of
 * "the committed run", "this run", "the same run", "the crash-holder run") and gives a figure in a run's shape (a time or a
 * duration, a percentage, a decimal) must open with a {@code <!-- figure: docs/results/... -->}
 * marker. Bench figures carry their own markers and are left to those.
 */
final class UnmarkedRunFigures {

    private static final Pattern CODE_BLOCK = Pattern.compile("```.*?```", Pattern.DOTALL);
    private static final Pattern PARAGRAPH_BREAK = Pattern.compile("\\n\\s*\\n");
    private static final Pattern NAMES_A_RUN = Pattern.compile(
            "results/[\\w.+-]+/[\\w.+-]+\\.(?:md|svg)|\\b(?:committed|this|same|lab) run\\b"
                    + "|\\b[a-z]+-[a-z-]+(?:\\+[a-z]+)? run\\b", Pattern.CASE_INSENSITIVE);
    /** A run's figure: a number in ms, µs, s or %, or with decimals (not a version such as Redis 7.0). */
    private static final Pattern RUN_FIGURE = Pattern.compile(
            "(?<![\\w.])(?<!Redis )(?<!JDK )\\d[\\d,]*(?:\\.\\d+)?(?: ?(?:ms|µs|s|%)(?!\\w))|(?<![\\w.])(?<!Redis )(?<!JDK )\\d+\\.\\d+(?![\\w.])");
    private static final Pattern NOT_PROSE = Pattern.compile("<!--.*?-->|\\]\\([^)]*\\)", Pattern.DOTALL);
    private static final String RUN_MARKER = "<!-- figure: docs/results/";

    private final List<String> problems = new ArrayList<>();

    /** Checks every paragraph of {@code text}, the page {@code where}. */
    void check(String where, String text) {
        for (String paragraph : PARAGRAPH_BREAK.split(CODE_BLOCK.matcher(text).replaceAll(""))) {
            if (paragraph.strip().startsWith(RUN_MARKER) || !NAMES_A_RUN.matcher(paragraph).find()
                    || paragraph.contains("<!-- figure: bench/")) {
                continue;
            }
            Matcher figure = RUN_FIGURE.matcher(NOT_PROSE.matcher(paragraph).replaceAll(" "));
            if (figure.find()) {
                String opening = paragraph.strip().replaceAll("\\s+", " ");
                problems.add(where + ": quotes " + figure.group().strip() + " from a lab run without a marker: "
                        + opening.substring(0, Math.min(100, opening.length())) + "...");
            }
        }
    }

    /** The unmarked paragraphs, one line each with the first figure found. */
    List<String> problems() {
        return problems;
    }
}
