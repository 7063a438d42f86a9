package dev.lockstep.lab;

import dev.lockstep.testkit.client.Threads;
import dev.lockstep.testkit.fixture.RedisFixture;
import dev.lockstep.testkit.scenario.Outcome;
import dev.lockstep.testkit.scenario.Outcome.Cell;
import dev.lockstep.testkit.scenario.Scenario;
import dev.lockstep.testkit.scenario.Scoreboard;
import dev.lockstep.testkit.stage.Stage;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * One lab run: plays scenarios on stages with fresh Redis nodes, several at once since they mostly
 * wait, printing a line and a report for each in the catalogue's order, then the scoreboard, and
 * decides the exit status. In colour, the cells, the timelines' violations and the verdicts are
 * painted; plain text is the default.
 */
final class Session {

    private final PrintWriter out;
    private final boolean strict;
    private final Path folder;
    private final boolean colour;
    private final boolean fixtureEvents;
    private final int parallel;

    /**
     * Prints to {@code out}, coloured when {@code colour}, the fixture's own key events too when
     * {@code fixtureEvents}; {@code strict} fails on reproductions; {@code folder} (or null) gets the
     * scoreboard, and a picture and a page per outcome; up to {@code parallel} scenarios play at once.
     */
    Session(PrintWriter out, boolean strict, Path folder, boolean colour, boolean fixtureEvents, int parallel) {
        this.out = out;
        this.strict = strict;
        this.folder = folder;
        this.colour = colour;
        this.fixtureEvents = fixtureEvents;
        this.parallel = parallel;
    }

    /**
     * Plays every scenario on every stage, up to {@code parallel} at once, and prints each in the
     * catalogue's order, stage by stage, as soon as it and those before it are done; the exit status
     * (0 when nothing failed).
     */
    int play(List<Stage> stages, List<Scenario> scenarios) {
        long start = System.nanoTime();
        List<Outcome> outcomes = new ArrayList<>();
        String redis;
        try (RedisFixture fixture = RedisFixture.fromSystemProperty()) {
            redis = fixture.description();
            say("Redis: " + redis + (parallel > 1 ? "; up to " + parallel + " scenarios at a time" : ""));
            ExecutorService players = Executors.newFixedThreadPool(parallel, Threads.factory("lab-player"));
            try {
                List<Future<Played>> playing = new ArrayList<>();
                for (Stage stage : stages) {
                    for (Scenario scenario : scenarios) {
                        playing.add(players.submit(() -> Played.run(stage, scenario, fixture)));
                    }
                }
                for (Future<Played> next : playing) {
                    Played played = next.get();
                    outcomes.add(played.outcome());
                    print(played, outcomes.size(), playing.size());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("the lab was interrupted", e);
            } catch (ExecutionException e) {
                throw new IllegalStateException("a scenario's run broke outside its story", e.getCause());
            } finally {
                players.shutdownNow();
            }
        }
        Scoreboard scoreboard = new Scoreboard();
        outcomes.forEach(scoreboard::add);
        say(scoreboard.markdown());
        if (folder != null) {
            // The binary's temporary path says nothing in a committed file; its version and origin do.
            String where = redis.replaceAll(":\\s*/[^)]*", "");
            double elapsed = (System.nanoTime() - start) / 1e9;
            new ResultFolder(folder).write(scoreboard, outcomes,
                    new ResultFolder.Run(where, elapsed, LocalDate.now(ZoneOffset.UTC).toString()));
            say("Wrote " + folder.resolve("scoreboard.md") + ", " + folder.resolve("index.md")
                    + " and a timeline picture (.svg) and page (.md) per outcome.");
        }
        say(summary(outcomes, System.nanoTime() - start));
        return failed(scoreboard, outcomes) ? 1 : 0;
    }

    private void print(Played played, int number, int total) {
        Outcome outcome = played.outcome();
        String width = Integer.toString(Integer.toString(total).length());
        String label = String.format("[%" + width + "d/%d] %s  %s", number, total, outcome.stage().name(),
                outcome.scenario().id());
        say(label + ": " + Report.cell(outcome.cell(), colour) + " (" + seconds(played.nanos()) + ")");
        say(Report.of(outcome, colour, fixtureEvents));
    }

    private boolean failed(Scoreboard scoreboard, List<Outcome> outcomes) {
        return scoreboard.anyFailed() || strict && count(outcomes, Cell.REPRODUCED) > 0;
    }

    private String summary(List<Outcome> outcomes, long nanos) {
        String summary = "Done in " + seconds(nanos) + ": "
                + count(outcomes, Cell.PREVENTED) + " prevented, "
                + count(outcomes, Cell.REPRODUCED) + " reproduced, "
                + count(outcomes, Cell.FAILED) + " FAILED"
                + (count(outcomes, Cell.NOT_PLAYED) > 0 ? ", " + count(outcomes, Cell.NOT_PLAYED) + " not played (too slow)" : "");
        return strict ? summary + " (--strict: a reproduced failure fails the run)" : summary;
    }

    private static long count(List<Outcome> outcomes, Cell cell) {
        return outcomes.stream().filter(o -> o.cell() == cell).count();
    }

    private static String seconds(long nanos) {
        return String.format(Locale.ROOT, "%.1f s", nanos / 1e9);
    }

    private void say(String line) {
        out.println(line);
        out.flush();
    }

    /** One scenario's outcome and how long it took to play. */
    private record Played(Outcome outcome, long nanos) {

        static Played run(Stage stage, Scenario scenario, RedisFixture fixture) {
            long start = System.nanoTime();
            Outcome outcome = Outcome.run(stage, scenario, fixture);
            return new Played(outcome, System.nanoTime() - start);
        }
    }
}
