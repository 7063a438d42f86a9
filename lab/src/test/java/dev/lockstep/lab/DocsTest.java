package dev.lockstep.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.lockstep.testkit.scenario.Catalog;
import dev.lockstep.testkit.stage.Stages;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The docs' links and commands work from a fresh clone: every relative link names a file that is
 * there (and a heading on it, when it names one), and every command, in a shell block or quoted in the text, names modules, lab stages and scenarios,
 * benchmark classes and files that exist. Nothing is run: a command that parses and points at
 * real things is what this checks. And the figures they quote from the committed results are
 * those results: the scoreboard rows, the benchmark figures and the lab run's times and counts,
 * each in its unit; a paragraph that quotes the lab run carries a marker, so none goes unchecked.
 * Each lesson keeps to 1,500 words outside its code blocks, and shows a timeline the lab drew;
 * every timeline the docs print as text is cut from one page of the committed lab run.
 */
class DocsTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    /** Folders of build output and tool state, anywhere in the tree. */
    private static final Set<String> SKIPPED = Set.of("target", ".git", ".mvn");
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
    private static final Pattern SHELL_BLOCK = Pattern.compile("```sh\\n(.*?)```", Pattern.DOTALL);
    /** A command quoted in running text: {@code `./mvnw ...`}, {@code `java -jar ...`}, or the {@code mvn} it must not be. */
    private static final Pattern INLINE_COMMAND = Pattern.compile("`((?:\\./mvnw|mvn|java -c?p? ?-?jar|java -cp) [^`]+)`");
    private static final Pattern MODULES = Pattern.compile("-pl\\s+(\\S+)");
    private static final Pattern LAB_RUN = Pattern.compile("lockstep-lab\\.jar\\s+run\\s+(\\S+)\\s+(\\S+)");
    private static final Pattern BENCH_CLASS = Pattern.compile("benchmarks\\.jar\\s+(dev\\.lockstep\\.bench\\.\\w+)");
    private static final Pattern CODE_BLOCK = Pattern.compile("```.*?```", Pattern.DOTALL);
    private static final Pattern HEADING = Pattern.compile("(?m)^#{1,6}\\s+(.*?)\\s*#*\\s*$");
    private static final Pattern NAMED_ANCHOR = Pattern.compile("<a\\s+(?:id|name)=\"([^\"]+)\"");
    /** A picture of a run: a timeline the lab drew, as an SVG. */
    private static final Pattern TIMELINE_PICTURE = Pattern.compile("!\\[[^\\]]*\\]\\([^)\\s]+\\.svg\\)");
    /** The most a lesson may say, outside its code blocks (its figure markers count). */
    private static final int LESSON_WORDS = 1500;
    /** Notebooks of benchmark, soak and test-time runs: their figures are no lab run's (bench figures carry markers). */
    private static final List<String> NOTEBOOKS = List.of("docs/performance.md", "docs/soak.md", "docs/test-times",
            "bench/");
    private static final Pattern RESULTS_FILE = Pattern.compile("\\b((?:bench|docs)/results/[\\w.+/-]+\\.json)\\b");

    @Test
    void everyRelativeLinkNamesAFileThatIsThere() {
        List<String> broken = new ArrayList<>();
        for (Path page : pages()) {
            Matcher link = LINK.matcher(read(page));
            while (link.find()) {
                String target = link.group(1);
                if (target.matches("^[a-z]+:.*") || target.startsWith("#")) {
                    continue;
                }
                Path file = page.getParent().resolve(target.replaceFirst("#.*$", "")).normalize();
                if (!Files.exists(file)) {
                    broken.add(ROOT.relativize(page) + ": " + target);
                }
            }
        }
        assertEquals(List.of(), broken, "links to files that are not there");
    }

    @Test
    void everyCommandNamesThingsThatExist() {
        List<String> wrong = new ArrayList<>();
        int commands = 0;
        for (Path page : pages()) {
            List<String> lines = new ArrayList<>();
            String text = read(page);
            Matcher block = SHELL_BLOCK.matcher(text);
            while (block.find()) {
                lines.addAll(Arrays.asList(block.group(1).split("\\n")));
            }
            Matcher inline = INLINE_COMMAND.matcher(CODE_BLOCK.matcher(text).replaceAll(""));
            while (inline.find()) {
                lines.add(inline.group(1));
            }
            for (String line : lines) {
                String command = line.replaceFirst("\\s+#.*$", "").strip();
                if (command.isEmpty() || command.startsWith("#")) {
                    continue;
                }
                commands++;
                String problem = problem(command);
                if (problem != null) {
                    wrong.add(ROOT.relativize(page) + ": " + command + "  <- " + problem);
                }
            }
        }
        assertEquals(List.of(), wrong, "commands that would not run from a fresh clone");
        System.out.printf("DocsTest: %d commands in the docs checked%n", commands);
    }

    @Test
    void everyScoreboardRowIsTheCommittedOne() {
        ScoreboardCopies copies = new ScoreboardCopies(ROOT);
        List<Path> lessons = lessons();
        for (Path page : pages()) {
            copies.check(page, lessons.contains(page) ? page.getParent().getFileName().toString() : null);
        }
        assertEquals(List.of(), copies.problems(), "scoreboard rows that differ from docs/results/scoreboard.md");
        System.out.printf("DocsTest: %d scoreboard rows in the docs checked%n", copies.copiedRows());
    }

    @Test
    void everyQuotedFigureIsWhatItsResultsGive() {
        QuotedFigures figures = new QuotedFigures(ROOT);
        for (Path page : pages()) {
            figures.check(page, read(page));
        }
        assertEquals(List.of(), figures.problems(), "quoted figures that the committed results no longer give");
        System.out.printf("DocsTest: %d quoted figures checked against the committed results%n", figures.figures());
    }

    @Test
    void everyAnchorNamesAHeadingOfItsPage() {
        List<String> broken = new ArrayList<>();
        Map<Path, Set<String>> anchors = new HashMap<>();
        int checked = 0;
        for (Path page : pages()) {
            Matcher link = LINK.matcher(read(page));
            while (link.find()) {
                String target = link.group(1);
                int hash = target.indexOf('#');
                if (target.matches("^[a-z]+:.*") || hash < 0) {
                    continue;
                }
                Path file = hash == 0 ? page : page.getParent().resolve(target.substring(0, hash)).normalize();
                if (!file.toString().endsWith(".md") || !Files.exists(file)) {
                    continue;
                }
                checked++;
                if (!anchors.computeIfAbsent(file, DocsTest::anchorsOf).contains(target.substring(hash + 1))) {
                    broken.add(ROOT.relativize(page) + ": " + target);
                }
            }
        }
        assertEquals(List.of(), broken, "links to a heading that is not on the page");
        System.out.printf("DocsTest: %d links to headings checked%n", checked);
    }

    @Test
    void everyLessonKeepsToItsWordsAndShowsItsTimeline() {
        List<String> problems = new ArrayList<>();
        List<Path> lessons = new ArrayList<>(lessons());
        lessons.add(ROOT.resolve("beyond/README.md"));
        for (Path lesson : lessons) {
            String text = read(lesson);
            int words = CODE_BLOCK.matcher(text).replaceAll(" ").trim().split("\\s+").length;
            if (words > LESSON_WORDS) {
                problems.add(ROOT.relativize(lesson) + ": " + words + " words outside code blocks, over "
                        + LESSON_WORDS);
            }
            if (!TIMELINE_PICTURE.matcher(text).find()) {
                problems.add(ROOT.relativize(lesson) + ": shows no timeline picture");
            }
        }
        assertEquals(List.of(), problems, "lessons over their word limit or without their picture");
    }

    @Test
    void everyTraceIsCutFromOnePageOfTheCommittedRun() {
        TraceCuts cuts = new TraceCuts(ROOT);
        pages().forEach(cuts::check);
        assertEquals(List.of(), cuts.problems(), "traces that are not cut from one page of the committed lab run");
        System.out.printf("DocsTest: %d traces checked against the committed run%n", cuts.traces());
    }

    @Test
    void everyRunFigureIsMarked() {
        UnmarkedRunFigures unmarked = new UnmarkedRunFigures();
        for (Path page : pages()) {
            String where = ROOT.relativize(page).toString();
            if (NOTEBOOKS.stream().noneMatch(where::startsWith)) {
                unmarked.check(where, read(page));
            }
        }
        assertEquals(List.of(), unmarked.problems(), "lab-run figures that no marker ties to the committed run");
    }

    /**
     * The anchors GitHub gives {@code page}: each heading lowercased, its links and code marks
     * reduced to their text, punctuation dropped and spaces turned to hyphens (a repeated one
     * numbered), and any {@code <a id>} or {@code <a name>}.
     */
    private static Set<String> anchorsOf(Path page) {
        String text = read(page);
        Set<String> anchors = new HashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        Matcher heading = HEADING.matcher(CODE_BLOCK.matcher(text).replaceAll(""));
        while (heading.find()) {
            String slug = heading.group(1).replaceAll("\\[([^\\]]*)\\]\\([^)]*\\)", "$1").replaceAll("<[^>]+>|`", "")
                    .toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N}_\\- ]", "").replace(' ', '-');
            int before = seen.merge(slug, 1, Integer::sum) - 1;
            anchors.add(before == 0 ? slug : slug + "-" + before);
        }
        Matcher named = NAMED_ANCHOR.matcher(text);
        while (named.find()) {
            anchors.add(named.group(1));
        }
        return anchors;
    }

    /** The lessons that show a stage's scoreboard row: each stage's, and each lock of the family's. */
    private static List<Path> lessons() {
        try (Stream<Path> stages = Files.list(ROOT); Stream<Path> family = Files.list(ROOT.resolve("family"))) {
            return Stream.concat(stages.filter(dir -> dir.getFileName().toString().matches("v\\d-.+")), family)
                    .map(dir -> dir.resolve("README.md"))
                    .filter(Files::exists)
                    .sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** What is wrong with {@code command}, or null. */
    private static String problem(String command) {
        if (command.startsWith("mvn ")) {
            return "use the wrapper, ./mvnw: a fresh machine has only a JDK";
        }
        Matcher modules = MODULES.matcher(command);
        while (modules.find()) {
            for (String module : modules.group(1).split(",")) {
                if (!Files.exists(ROOT.resolve(module).resolve("pom.xml"))) {
                    return "no module " + module;
                }
            }
            if (command.contains("-Dtest=") && command.contains(" -am")
                    && !command.contains("-Dsurefire.failIfNoSpecifiedTests=false")) {
                return "-Dtest with -am fails in the modules without that test: add -Dsurefire.failIfNoSpecifiedTests=false";
            }
        }
        Matcher run = LAB_RUN.matcher(command);
        if (run.find()) {
            try {
                Stages.named(run.group(1));
                Catalog.byId(run.group(2));
            } catch (IllegalArgumentException | NoSuchElementException e) {
                return e.getMessage();
            }
        }
        Matcher bench = BENCH_CLASS.matcher(command);
        if (bench.find()) {
            String source = "bench/src/main/java/" + bench.group(1).replace('.', '/') + ".java";
            if (!Files.exists(ROOT.resolve(source))) {
                return "no class " + bench.group(1);
            }
        }
        Matcher results = RESULTS_FILE.matcher(command);
        while (results.find()) {
            if (!Files.exists(ROOT.resolve(results.group(1))) && !command.contains("-rff " + results.group(1))) {
                return "no file " + results.group(1);
            }
        }
        return null;
    }

    /** The Markdown pages the repository keeps, outside build output and generated results. */
    private static List<Path> pages() {
        try (Stream<Path> files = Files.walk(ROOT)) {
            List<Path> pages = files.filter(path -> path.toString().endsWith(".md"))
                    .filter(path -> Arrays.stream(ROOT.relativize(path).toString().split("/"))
                            .noneMatch(SKIPPED::contains))
                    // Generated by the lab; checked by the lab's own tests.
                    .filter(path -> !ROOT.relativize(path).toString().startsWith("docs/results"))
                    .sorted().toList();
            if (pages.size() < 10) {
                throw new IllegalStateException("found only " + pages + " below " + ROOT);
            }
            return pages;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String read(Path page) {
        try {
            return Files.readString(page);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
