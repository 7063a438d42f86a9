package dev.lockstep.lab;

import dev.lockstep.testkit.scenario.Catalog;
import dev.lockstep.testkit.stage.Stage;
import dev.lockstep.testkit.stage.Stages;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

/**
 * The main program: plays every scenario on every stage against real Redis, and the comparison
 * stories on the alternatives beyond it, and prints what happened.
 */
@Command(name = "lab",
        mixinStandardHelpOptions = true,
        versionProvider = LabVersion.class,
        subcommands = {ListCommand.class, RunCommand.class, SoakCommand.class, CheckCommand.class,
                ExploreModelCommand.class, InspectCommand.class},
        description = {
                "Plays every scenario on every stage against real redis-server processes,",
                "prints each timeline, then the scoreboard (stage x scenario)."},
        footer = {
                "",
                "Cells: prevented (the stage claims the guarantee and it held), reproduced (the stage does not "
                        + "claim it and the documented failure happened), FAILED (anything else), not played (the machine "
                        + "was too slow to set the story up in 3 plays: no verdict on the lock).",
                "Exit status: 0 when no cell is FAILED (with --strict: and none is reproduced), "
                        + "1 otherwise, 2 on a usage error.",
                "Redis: $LOCKSTEP_REDIS_SERVER, else redis-server on the PATH, else the Redis bundled in the jar; "
                        + "java -Dlockstep.redis=docker -jar ... runs the nodes in containers instead."})
public final class Lab implements Callable<Integer> {

    @Option(names = "--strict", scope = ScopeType.INHERIT,
            description = "Exit non-zero when any failure is reproduced, not only when a cell is FAILED.")
    private boolean strict;

    @Option(names = "--out", paramLabel = "DIR", scope = ScopeType.INHERIT,
            description = "Also write DIR/scoreboard.md, DIR/index.md, and for every outcome a timeline picture "
                    + "DIR/<stage>/<scenario>.svg and a page DIR/<stage>/<scenario>.md.")
    private Path out;

    @Option(names = "--color", paramLabel = "WHEN", scope = ScopeType.INHERIT,
            defaultValue = "auto", converter = ColourMode.class,
            description = "Colour the timelines and verdicts: auto (on a terminal, unless NO_COLOR is set), "
                    + "always, never. Default: ${DEFAULT-VALUE}.")
    private Colour.Mode colour;

    @Option(names = "--fixture-events", scope = ScopeType.INHERIT,
            description = "Also show, in the timelines, the fixture's own key events (replication markers) and a "
                    + "lock's helper keys (queues, per-hold timeouts).")
    private boolean fixtureEvents;

    @Option(names = "--parallel", paramLabel = "N", scope = ScopeType.INHERIT, defaultValue = "8",
            description = "Play up to N scenarios at once (they mostly wait on leases and servers); the output "
                    + "keeps the catalogue's order. 1 plays them one by one. Default: ${DEFAULT-VALUE}.")
    private int parallel;

    @Spec
    private CommandSpec spec;

    /** Runs the lab with {@code args} and exits with its status. */
    public static void main(String[] args) {
        System.exit(new CommandLine(new Lab()).execute(args));
    }

    /** Plays the whole catalog on every stage; the exit status. */
    @Override
    public Integer call() {
        List<Stage> stages = new ArrayList<>(Stages.all());
        stages.addAll(Stages.beyondRedis());
        return session().play(stages, Catalog.all());
    }

    /** A session that prints to this command line's output and honours its options. */
    Session session() {
        if (parallel < 1) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--parallel must be at least 1, was " + parallel);
        }
        return new Session(spec.commandLine().getOut(), strict, out, Colour.enabled(colour), fixtureEvents, parallel);
    }

    /** Reads {@code auto}, {@code always} or {@code never}, in any case. */
    static final class ColourMode implements CommandLine.ITypeConverter<Colour.Mode> {

        @Override
        public Colour.Mode convert(String value) {
            try {
                return Colour.Mode.valueOf(value.toUpperCase(java.util.Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException("expected auto, always or never, not '" + value + "'");
            }
        }
    }
}
