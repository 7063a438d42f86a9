package dev.lockstep.lab;

import dev.lockstep.testkit.fixture.RedisFixture;
import dev.lockstep.testkit.model.ModelChecker;
import dev.lockstep.testkit.model.ModelSetup;
import dev.lockstep.testkit.stage.Stage;
import dev.lockstep.testkit.stage.Stages;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/** {@code lab explore-model}: seeded random histories checked against the reference model, for as long as asked. */
@Command(name = "explore-model", mixinStandardHelpOptions = true,
        description = {
                "Plays random histories over the lock API (lock, tryLock with and without lease, re-entry, unlock,",
                "extend longer and shorter, forceUnlock, interrupt, close, read and write sides, fenced writes, hold",
                "handles taken, extended, released, closed and dropped on other threads, one name held alone and in",
                "a group of names at once) and the wire faults (lost reply, blip, dropped connections, stall, crash)",
                "on each stage in turn, checking after every step that",
                "what each client believes it holds is what Redis stores. A failure is shrunk to its shortest history",
                "and reported with its seed; each rule is reported once per stage. The explorer's alphabet is",
                "pinned to the public surface (AlphabetTest): every public method is drawn or checked."},
        footer = {"", "Exit status: 0 when every history kept every check, 1 otherwise."})
final class ExploreModelCommand implements Callable<Integer> {

    @Option(names = "--minutes", defaultValue = "10", paramLabel = "M",
            description = "Total time, shared by the stages. Default: ${DEFAULT-VALUE}.")
    private double minutes;

    @Option(names = "--seed", paramLabel = "N",
            description = "The seed of the seeds: each history's seed is drawn from it. Default: the clock.")
    private Long seed;

    @Option(names = "--replay", paramLabel = "N",
            description = "Play only the history of seed N (as a failure reports it) on each stage, and shrink it.")
    private Long replay;

    @Option(names = "--steps", defaultValue = "40", paramLabel = "S",
            description = "Steps per history. Default: ${DEFAULT-VALUE}.")
    private int steps;

    @Option(names = "--stages", split = ",", paramLabel = "STAGE", converter = ShortStageName.class,
            defaultValue = "v4,v5,v6,v7,fair,rw,multi",
            description = "The stages (v4, v5, v6, v7, fair, rw, multi, or module names). Default: ${DEFAULT-VALUE}.")
    private List<Stage> stages;

    @Option(names = "--report", paramLabel = "FILE", description = "Also write the report, in Markdown, to FILE.")
    private Path report;

    @Spec
    private CommandSpec spec;

    /** A stage's turn: how many histories it played, and the first failure per rule with when it was found. */
    private record StageResult(Stage stage, int histories, List<ModelChecker.Failure> failures, List<String> found) {
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        long chosen = seed != null ? seed : System.currentTimeMillis();
        Duration each = Duration.ofMillis((long) (minutes * 60_000 / stages.size()));
        List<StageResult> results = new ArrayList<>();
        StepTally tally = new StepTally();
        try (RedisFixture fixture = RedisFixture.fromSystemProperty()) {
            out.printf("explore-model: %s each, %d steps per history, on %s, seed %d%n", replay != null ? "one history"
                    : each, steps, fixture.description(), chosen);
            out.flush();
            for (Stage stage : stages) {
                results.add(explore(stage, fixture, new Random(chosen), each, out, tally));
            }
            String markdown = markdown(results, chosen, fixture.description(), tally);
            out.println();
            out.println(markdown);
            if (report != null) {
                write(report, markdown);
            }
        }
        return results.stream().allMatch(r -> r.failures().isEmpty()) ? 0 : 1;
    }

    private StageResult explore(Stage stage, RedisFixture fixture, Random seeds, Duration each, PrintWriter out,
            StepTally tally) {
        ModelChecker checker = new ModelChecker(ModelSetup.of(stage), fixture, line -> {
            out.println(line);
            out.flush();
        });
        Map<String, ModelChecker.Failure> byRule = new LinkedHashMap<>();
        List<String> found = new ArrayList<>();
        long start = System.nanoTime();
        long end = start + each.toNanos();
        int histories = 0;
        do {
            long historySeed = replay != null ? replay : seeds.nextLong();
            histories++;
            tally.add(stage.name(), checker.history(historySeed, steps));
            Optional<ModelChecker.Failure> failure = checker.check(historySeed, steps);
            if (failure.isPresent()) {
                ModelChecker.Failure f = failure.get();
                String rule = f.shrunk().violation().orElseThrow().rule();
                if (byRule.putIfAbsent(rule, f) == null) {
                    // Found and shrunk by now: the figure the mutant hunts quote.
                    String when = String.format("%s in history %d, %d s into the turn, shrinking included", rule, histories,
                            Duration.ofNanos(System.nanoTime() - start).toSeconds());
                    found.add(when);
                    out.println(f.report(stage.name()));
                    out.println(stage.name() + " found " + when);
                    out.flush();
                }
            }
        } while (replay == null && System.nanoTime() < end);
        return new StageResult(stage, histories, List.copyOf(byRule.values()), found);
    }

    private String markdown(List<StageResult> results, long chosen, String redis, StepTally tally) {
        StringBuilder md = new StringBuilder();
        md.append("Run on ").append(LocalDate.now()).append(", ").append(Runtime.getRuntime().availableProcessors())
                .append(" cores, Java ").append(Runtime.version().feature()).append(", ").append(redis)
                .append(": `lab explore-model --seed ").append(chosen).append(" --steps ").append(steps)
                .append(" --minutes ").append(minutes).append("`.\n\n");
        md.append("| stage | histories | steps | rules broken |\n|---|---|---|---|\n");
        for (StageResult r : results) {
            md.append("| ").append(r.stage().name()).append(" | ").append(r.histories()).append(" | ")
                    .append(r.histories() * steps).append(" | ").append(r.found().isEmpty() ? "none"
                            : String.join("; ", r.found())).append(" |\n");
        }
        md.append("\nSteps drawn, by kind and by wire fault:\n\n").append(tally.markdown());
        for (StageResult r : results) {
            for (ModelChecker.Failure f : r.failures()) {
                md.append("\n### ").append(r.stage().name()).append(": ")
                        .append(f.shrunk().violation().orElseThrow().rule()).append("\n\n```\n")
                        .append(f.report(r.stage().name()).replace("\u001b", "")).append("```\n");
            }
        }
        return md.toString();
    }

    private static void write(Path file, String text) {
        try {
            Path parent = file.toAbsolutePath().getParent();
            Files.createDirectories(parent);
            Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A stage by its short name (v4 .. v7, fair, rw) or its module name. */
    static final class ShortStageName implements ITypeConverter<Stage> {

        private static final Map<String, String> SHORT = Map.of("v4", "v4-watchdog", "v5", "v5-pubsub-retry",
                "v6", "v6-redlock", "v7", "v7-fencing", "fair", "fair-lock", "rw", "read-write-lock", "multi", "multi-lock");

        @Override
        public Stage convert(String name) {
            try {
                return Stages.named(SHORT.getOrDefault(name, name));
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }
}
