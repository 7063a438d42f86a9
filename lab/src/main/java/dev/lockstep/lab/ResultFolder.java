package dev.lockstep.lab;

import dev.lockstep.testkit.history.Timeline;
import dev.lockstep.testkit.scenario.Outcome;
import dev.lockstep.testkit.scenario.Scenario;
import dev.lockstep.testkit.scenario.Scoreboard;
import dev.lockstep.testkit.stage.Stages;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Writes results: {@code DIR/scoreboard.md} (the scoreboard table, as the tests write it),
 * {@code DIR/index.md} (the same table with every cell linked to its page), and per outcome
 * {@code DIR/<stage>/<scenario>.svg} (the timeline picture) and {@code DIR/<stage>/<scenario>.md}
 * (the story, the picture, the verdict and the text timeline).
 */
final class ResultFolder {

    private final Path dir;

    /** A folder at {@code dir}, created on write. */
    ResultFolder(Path dir) {
        this.dir = dir;
    }

    /**
     * What the index says about the run.
     *
     * @param redis   what ran the Redis nodes
     * @param seconds how long the run took
     * @param date    when, as an ISO date
     */
    record Run(String redis, double seconds, String date) {
    }

    /** Writes the scoreboard, the index and two files per outcome, replacing older files of the same names. */
    void write(Scoreboard scoreboard, List<Outcome> outcomes, Run run) {
        scoreboard.write(dir.resolve("scoreboard.md"));
        for (Outcome outcome : outcomes) {
            if (outcome.cell() == Outcome.Cell.NOT_APPLICABLE) {
                continue;
            }
            Path stageDir = dir.resolve(outcome.stage().name());
            String id = outcome.scenario().id();
            write(stageDir.resolve(id + ".svg"), SvgTimeline.render(outcome));
            write(stageDir.resolve(id + ".md"), page(outcome, lesson(stageDir, outcome.stage().name())));
        }
        write(dir.resolve("index.md"), index(outcomes, run));
    }

    private static void write(Path file, String text) {
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            Files.writeString(file, text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * One outcome as a page: the story, the picture, the verdict, the T1..T6 steps where the story
     * has them, and the text timeline. {@code lesson} is a relative link to the stage's lesson, or null.
     */
    static String page(Outcome outcome, String lesson) {
        String id = outcome.scenario().id();
        StringBuilder out = new StringBuilder();
        out.append("# ").append(outcome.stage().name()).append(" / ").append(id).append(": ").append(outcome.cell())
                .append("\n\n");
        out.append(outcome.stage().name()).append(outcome.claimed() ? " claims " : " does not claim ")
                .append('`').append(outcome.scenario().guarantee()).append("`.");
        if (lesson != null) {
            out.append(" The lesson: [").append(outcome.stage().name()).append("](").append(lesson).append(").");
        }
        out.append(" All results: [index](../index.md).\n\n");
        out.append(outcome.scenario().story()).append("\n\n");
        out.append("![Timeline of ").append(outcome.stage().name()).append(" / ").append(id).append("](")
                .append(id).append(".svg)\n\n");
        out.append(verdict(outcome)).append("\n\n");
        String steps = Steps.markdown(Steps.of(outcome));
        if (!steps.isEmpty()) {
            out.append(steps).append('\n');
        }
        out.append("<details>\n<summary>The same run as text, as the lab prints it</summary>\n\n");
        out.append("```text\n").append(Timeline.render(outcome.history())).append("```\n\n</details>\n");
        return out.toString();
    }

    private static String verdict(Outcome outcome) {
        if (outcome.error() != null) {
            return "**The run broke:** " + outcome.error();
        }
        return (outcome.verdict().violated() ? "**VIOLATION:** " : "**OK:** ") + outcome.verdict().explanation();
    }

    /** The scoreboard with every cell linked to its page, and what the cells mean. */
    static String index(List<Outcome> outcomes, Run run) {
        Map<String, Map<String, Outcome>> rows = new LinkedHashMap<>();
        Map<String, Scenario> columns = new LinkedHashMap<>();
        for (Outcome outcome : outcomes) {
            rows.computeIfAbsent(outcome.stage().name(), s -> new LinkedHashMap<>()).put(outcome.scenario().id(), outcome);
            columns.putIfAbsent(outcome.scenario().id(), outcome.scenario());
        }
        StringBuilder out = new StringBuilder("# Lab results\n\n");
        out.append("Written by `java -jar lab/target/lockstep-lab.jar --out <dir>` on ").append(run.date())
                .append(": every scenario played on every stage against real Redis servers, ").append(run.redis())
                .append(". The run took ").append(String.format(Locale.ROOT, "%.0f", run.seconds()))
                .append(" s. Each cell links to that run's timeline picture and story.\n\n");
        out.append("| stage |");
        columns.keySet().forEach(c -> out.append(' ').append(c).append(" |"));
        out.append("\n|---|");
        columns.keySet().forEach(c -> out.append("---|"));
        out.append('\n');
        rows.forEach((stage, cells) -> {
            out.append("| ").append(stage).append(" |");
            for (String column : columns.keySet()) {
                Outcome outcome = cells.get(column);
                if (outcome == null || outcome.cell() == Outcome.Cell.NOT_APPLICABLE) {
                    out.append(" n/a |");
                } else {
                    out.append(" [").append(outcome.cell()).append("](").append(stage).append('/').append(column)
                            .append(".md) |");
                }
            }
            out.append('\n');
        });
        String needs = columns.values().stream().filter(s -> s.needs() != null)
                .map(s -> s.id() + " needs " + s.needs()).collect(Collectors.joining("; "));
        out.append("\n*prevented*: the stage claims the guarantee and it held. *reproduced*: the stage does not "
                + "claim it, and the documented failure happened. *FAILED*: anything else. *n/a*: the story needs "
                + "what the stage does not have (" + needs + "). The same table without links is "
                + "[scoreboard.md](scoreboard.md).\n\n");
        out.append("## The scenarios\n\n| scenario | guarantee | story |\n|---|---|---|\n");
        columns.values().forEach(s -> out.append("| ").append(s.id()).append(" | `").append(s.guarantee())
                .append("` | ").append(s.story().replace("|", "\\|")).append(" |\n"));
        return out.toString();
    }

    /**
     * A link from {@code pageDir} to the lesson {@code <project>/<stage>/README.md} (or
     * {@code <project>/family/<stage>/README.md} for a member of the lock family, and
     * {@code <project>/beyond/README.md} for an alternative beyond Redis), if an enclosing
     * folder has it.
     */
    static String lesson(Path pageDir, String stage) {
        boolean beyondRedis = Stages.named(stage).alternative();
        Path from = pageDir.toAbsolutePath().normalize();
        for (Path root = from.getParent(); root != null; root = root.getParent()) {
            for (Path folder : List.of(root.resolve(stage), root.resolve("family").resolve(stage),
                    root.resolve(beyondRedis ? "beyond" : stage))) {
                Path lesson = folder.resolve("README.md");
                if (Files.isRegularFile(lesson)) {
                    List<String> parts = new ArrayList<>();
                    from.relativize(lesson).forEach(p -> parts.add(p.toString()));
                    return String.join("/", parts);
                }
            }
        }
        return null;
    }
}
