package dev.lockstep.lab;

import dev.lockstep.bench.Results;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The figures the docs quote from committed results, each behind an HTML comment that names its
 * source, checked against that source. Two kinds:
 *
 * <ul>
 *   <li>{@code <!-- figure: bench/results/quick.json EXPRESSION -->3.1x}: the number right after the
 *       marker is {@link FigureExpression EXPRESSION} on that file, rounded to the decimals quoted
 *       (a {@code %} after it reads the value in hundredths);</li>
 *   <li>{@code <!-- figure: docs/results/STAGE/SCENARIO.md -->} on a line of its own: every number
 *       in the block after it (up to the next blank line), whatever its shape (a time, a count, a
 *       rate), occurs in that lab page, whose timeline and verdict hold the run's figures; a stage's
 *       number and a list item's are not figures. Numbers the page cannot show (the scenario's settings, a difference of two times) are listed after
 *       {@code besides}: {@code <!-- figure: docs/results/v4-watchdog/long-critical-section.md besides 300 100 (settings) -->}.</li>
 * </ul>
 */
final class QuotedFigures {

    private static final Pattern MARKER = Pattern.compile("(?<!`)<!-- figure:.*?-->", Pattern.DOTALL);
    private static final Pattern BENCH = Pattern.compile(
            "<!-- figure: (bench/results/[\\w.+/-]+\\.json) (.+?) -->([\\d,]*\\d(?:\\.\\d+)?)(%?)");
    private static final Pattern RUN = Pattern.compile(
            "<!-- figure: (docs/results/[\\w.+-]+/[\\w.+-]+\\.md)(?: besides ([^>]*))? -->\\n((?:[^\\n]+\\n?)+)");
    /** A number, commas dropped first: not part of a name such as {@code v3} or {@code w8}. */
    private static final Pattern NUMBER = Pattern.compile("(?<![\\w.])\\d+(?:\\.\\d+)?");
    /**
     * What a block may name but is no figure: link targets, the markers themselves, a stage by its
     * number, and the number of an item in a list.
     */
    private static final Pattern NOT_PROSE = Pattern.compile(
            "\\]\\([^)]*\\)|<!--.*?-->|(?i)\\bstages? \\d+(?:(?:,| to| and| or) \\d+)*|(?m)^\\s*\\d+\\.\\s");

    private final Path root;
    private final Map<String, Results> benchResults = new HashMap<>();
    private final Map<String, Set<String>> pageNumbers = new HashMap<>();
    private final List<String> problems = new ArrayList<>();
    private int figures;

    QuotedFigures(Path root) {
        this.root = root;
    }

    /** Checks every marked figure of {@code page} against the results it names. */
    void check(Path page, String text) {
        String where = root.relativize(page).toString();
        Matcher marker = MARKER.matcher(text);
        while (marker.find()) {
            Matcher bench = BENCH.matcher(text).region(marker.start(), text.length());
            Matcher run = RUN.matcher(text).region(marker.start(), text.length());
            if (bench.lookingAt()) {
                checkBench(where, bench);
            } else if (run.lookingAt()) {
                checkRun(where, run);
            } else {
                problems.add(where + ": a marker that names no results file and figure it can check: " + marker.group());
            }
        }
    }

    /** The figures that do not match their source, one line each saying what the source gives. */
    List<String> problems() {
        return problems;
    }

    /** How many figures were checked. */
    int figures() {
        return figures;
    }

    private void checkBench(String where, Matcher bench) {
        String quoted = bench.group(3).replace(",", "");
        boolean percent = !bench.group(4).isEmpty();
        figures++;
        try {
            double value = FigureExpression.evaluate(benchResults(bench.group(1)), bench.group(2)) * (percent ? 100 : 1);
            int decimals = quoted.contains(".") ? quoted.length() - quoted.indexOf('.') - 1 : 0;
            BigDecimal computed = BigDecimal.valueOf(value).setScale(decimals, RoundingMode.HALF_UP);
            if (computed.compareTo(new BigDecimal(quoted)) != 0) {
                problems.add(where + ": quotes " + bench.group(3) + bench.group(4) + " where " + bench.group(1)
                        + " gives " + computed.toPlainString() + bench.group(4) + " (" + bench.group(2) + ")");
            }
        } catch (IllegalArgumentException | NoSuchElementException e) {
            problems.add(where + ": cannot compute " + bench.group(2) + " from " + bench.group(1) + ": " + e.getMessage());
        }
    }

    private void checkRun(String where, Matcher run) {
        Set<String> known = pageNumbers(run.group(1));
        if (known == null) {
            problems.add(where + ": cites " + run.group(1) + ", which is not there");
            return;
        }
        Set<String> besides = numbers(run.group(2) == null ? "" : run.group(2));
        String prose = NOT_PROSE.matcher(withoutThousands(run.group(3))).replaceAll(" ");
        Matcher figure = NUMBER.matcher(prose);
        while (figure.find()) {
            for (String number : numbers(figure.group())) {
                figures++;
                if (!known.contains(number) && !besides.contains(number)) {
                    problems.add(where + ": quotes " + number + " from " + run.group(1)
                            + ", which that run does not have: ..." + context(prose, figure) + "...");
                }
            }
        }
    }

    private static String context(String prose, Matcher figure) {
        return prose.substring(Math.max(0, figure.start() - 50), Math.min(prose.length(), figure.end() + 20))
                .replace('\n', ' ');
    }

    private static Set<String> numbers(String text) {
        Set<String> numbers = new HashSet<>();
        Matcher number = NUMBER.matcher(withoutThousands(text));
        while (number.find()) {
            numbers.add(number.group());
        }
        return numbers;
    }

    private static String withoutThousands(String text) {
        return text.replaceAll("(\\d),(\\d{3})", "$1$2");
    }

    private Results benchResults(String file) {
        return benchResults.computeIfAbsent(file, f -> {
            try {
                return Results.read(root.resolve(f));
            } catch (IOException e) {
                throw new IllegalArgumentException("cannot read " + f + ": " + e.getMessage(), e);
            }
        });
    }

    /** The numbers of a lab page, commas dropped; null when there is no such page. */
    private Set<String> pageNumbers(String file) {
        if (!Files.exists(root.resolve(file))) {
            return null;
        }
        return pageNumbers.computeIfAbsent(file, f -> {
            try {
                return numbers(Files.readString(root.resolve(f)));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }
}
