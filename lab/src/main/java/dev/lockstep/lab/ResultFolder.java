package dev.lockstep.lab;

import dev.lockstep.testkit.Outcome;
import dev.lockstep.testkit.Scoreboard;
import dev.lockstep.testkit.Timeline;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Writes results as Markdown: {@code DIR/scoreboard.md} and {@code DIR/<stage>/<scenario>.md} per outcome. */
final class ResultFolder {

    private final Path dir;

    /** A folder at {@code dir}, created on write. */
    ResultFolder(Path dir) {
        this.dir = dir;
    }

    /** Writes the scoreboard and one page per outcome, replacing older files of the same names. */
    void write(Scoreboard scoreboard, List<Outcome> outcomes) {
        scoreboard.write(dir.resolve("scoreboard.md"));
        for (Outcome outcome : outcomes) {
            if (outcome.cell() == Outcome.Cell.NOT_APPLICABLE) {
                continue;
            }
            Path page = dir.resolve(outcome.stage().name()).resolve(outcome.scenario().id() + ".md");
            try {
                Files.createDirectories(page.getParent());
                Files.writeString(page, page(outcome));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** One outcome as a page: the story, the timeline in a code block, and the verdict. */
    static String page(Outcome outcome) {
        return "# " + outcome.stage().name() + " / " + outcome.scenario().id() + ": " + outcome.cell() + "\n\n"
                + outcome.stage().name() + (outcome.claimed() ? " claims " : " does not claim ")
                + outcome.scenario().guarantee() + ".\n\n"
                + outcome.scenario().story() + "\n\n"
                + "```text\n" + Timeline.render(outcome.history()) + "```\n\n"
                + verdict(outcome) + "\n";
    }

    private static String verdict(Outcome outcome) {
        if (outcome.error() != null) {
            return "**The run broke:** " + outcome.error();
        }
        return (outcome.verdict().violated() ? "**VIOLATION:** " : "**OK:** ") + outcome.verdict().explanation();
    }
}
