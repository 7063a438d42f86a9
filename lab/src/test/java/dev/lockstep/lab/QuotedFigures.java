package dev.lockstep.lab;

import dev.lockstep.bench.Results;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
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
 *   <li>{@code <!-- figure: docs/results/STAGE/SCENARIO.md -->} on a line of its own (several pages
 *       apart by spaces when a block quotes several runs' pages): every number in the block after it
 *       (up to the next blank line) is that run's, in the unit it is quoted in ({@link RunPage}): a
 *       time in ms is a row of its timeline or an {@code N ms} the page writes, a count of requests
 *       or commands one the verdict gives; a number without a unit occurs on the page. A stage's
 *       number and a list item's are not figures. Numbers the pages cannot show (the scenario's
 *       settings, a difference of two times) are listed after {@code besides}, a worked-out one
 *       with its arithmetic, which is checked ({@link Besides}):
 *       {@code <!-- figure: docs/results/v4-watchdog/long-critical-section.md besides 300 (the lease) 38 (970 - 932) -->}.</li>
 * </ul>
 */
final class QuotedFigures {

    private static final Pattern MARKER = Pattern.compile("(?<!`)<!-- figure:.*?-->", Pattern.DOTALL);
    private static final Pattern BENCH = Pattern.compile(
            "<!-- figure: (bench/results/[\\w.+/-]+\\.json) (.+?) -->([\\d,]*\\d(?:\\.\\d+)?)(%?)");
    private static final Pattern RUN = Pattern.compile(
            "<!-- figure: ((?:docs/results/(?:[\\w.+-]+/)?[\\w.+-]+\\.md ?)+)(?:besides ([^>]*))? ?-->\\n((?:[^\\n]+\\n?)+)");
    /**
     * What a block may name but is no figure: link targets, the markers themselves, a stage by its
     * number, and the number of an item in a list.
     */
    private static final Pattern NOT_PROSE = Pattern.compile(
            "\\]\\([^)]*\\)|<!--.*?-->|(?i)\\bstages?\\s+\\d+(?:(?:,| to| and| or)\\s+\\d+)*|(?m)^\\s*\\d+\\.\\s");

    private final Path root;
    private final Map<String, Results> benchResults = new HashMap<>();
    private final Map<String, RunPage> runPages = new HashMap<>();
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
        List<RunPage> pages = new ArrayList<>();
        for (String file : run.group(1).strip().split(" ")) {
            RunPage page = runPages.computeIfAbsent(file, f -> RunPage.read(root.resolve(f)));
            if (page == null) {
                problems.add(where + ": cites " + file + ", which is not there");
                return;
            }
            pages.add(page);
        }
        String files = run.group(1).strip();
        Besides besides = Besides.of(run.group(2));
        besides.problems(number -> pages.stream().anyMatch(page -> page.has(number)))
                .forEach(problem -> problems.add(where + ": the marker citing " + files + " " + problem));
        String prose = NOT_PROSE.matcher(RunPage.withoutThousands(run.group(3))).replaceAll(" ");
        Matcher figure = RunPage.NUMBER.matcher(prose);
        while (figure.find()) {
            String number = figure.group();
            String unit = RunPage.unitAfter(prose, figure);
            figures++;
            if (!besides.lists(number) && pages.stream().noneMatch(page -> page.has(number, unit))) {
                problems.add(where + ": quotes " + number + (unit == null ? "" : " " + unit) + " from " + files
                        + ", which that run does not have: ..." + context(prose, figure) + "...");
            }
        }
    }

    private static String context(String prose, Matcher figure) {
        return prose.substring(Math.max(0, figure.start() - 50), Math.min(prose.length(), figure.end() + 20))
                .replace('\n', ' ');
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
}
