package dev.lockstep.lab;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The timelines the docs print as text, each checked to be cut from one page of the committed lab
 * run: every line of the cut, its verdict too, is a line of that page (the page holding most of
 * them), so a trace cannot mix runs or scenarios, nor keep a time or a figure the run no longer has.
 */
final class TraceCuts {

    private static final Pattern TEXT_BLOCK = Pattern.compile("```text\\n(.*?)```", Pattern.DOTALL);
    /** The first line of a timeline as the lab prints it: the time column, then the lanes. */
    private static final Pattern TRACE_HEADER = Pattern.compile("(?m)^ +ms {2,}\\S");

    private final Path root;
    /** Each committed lab page's lines, by its path from the root. */
    private final Map<String, Set<String>> pages = new TreeMap<>();
    private final List<String> problems = new ArrayList<>();
    private int traces;

    /** The committed lab pages under {@code root}'s {@code docs/results}. */
    TraceCuts(Path root) {
        this.root = root;
        try (Stream<Path> results = Files.walk(root.resolve("docs/results"))) {
            results.filter(path -> path.toString().endsWith(".md")).forEach(page -> pages.put(
                    root.relativize(page).toString(), read(page).lines().map(TraceCuts::traceLine).collect(Collectors.toSet())));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Checks every trace of {@code page}. */
    void check(Path page) {
        Matcher block = TEXT_BLOCK.matcher(read(page));
        while (block.find()) {
            Matcher header = TRACE_HEADER.matcher(block.group(1));
            if (!header.find()) {
                continue;
            }
            traces++;
            List<String> lines = block.group(1).substring(header.start()).lines().map(TraceCuts::traceLine)
                    .filter(line -> !line.isBlank() && !line.equals("...")).toList();
            Map.Entry<String, Set<String>> source = pages.entrySet().stream()
                    .max(Comparator.comparingLong(p -> lines.stream().filter(p.getValue()::contains).count())).orElseThrow();
            lines.stream().filter(line -> !source.getValue().contains(line)).findFirst()
                    .ifPresent(line -> problems.add(root.relativize(page) + ": a trace cut from " + source.getKey()
                            + " has a line that page does not: " + line.strip()));
        }
    }

    /** The traces whose first line not on their page is given, one each. */
    List<String> problems() {
        return problems;
    }

    /** How many traces were checked. */
    int traces() {
        return traces;
    }

    /** A line of a trace as a lab page and a doc both write it: no trailing spaces, a verdict without its bold. */
    private static String traceLine(String line) {
        return line.stripTrailing().replaceFirst("^\\*\\*(VIOLATION|OK):\\*\\*", "$1:").replaceFirst("^ +\\.\\.\\.$", "...");
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
