package dev.lockstep.lab;

import dev.lockstep.testkit.fixture.RedisFixture;
import dev.lockstep.testkit.soak.Soak;
import dev.lockstep.testkit.soak.SoakVerdict;
import dev.lockstep.testkit.stage.Stage;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code lab soak}: client JVMs hammer a few locks while random faults hit both sides of the wire. */
@Command(name = "soak", mixinStandardHelpOptions = true,
        description = {
                "Soaks the production stages: client JVMs hammer a few locks on real Redis nodes while faults drawn",
                "at random (with a seed) hit the servers and the clients' side of the wire, one at a time. Then it",
                "reports, per stage: faults, acquisitions, overlapping critical sections and stuck holds (both must",
                "be 0), keys without a TTL, and how long a released lock stayed free while someone waited."},
        footer = {"", "Exit status: 0 when every stage kept its claims, 1 otherwise."})
final class SoakCommand implements Callable<Integer> {

    @Option(names = "--minutes", defaultValue = "10", paramLabel = "M",
            description = "Total time of fault injection, shared by the stages. Default: ${DEFAULT-VALUE}.")
    private double minutes;

    @Option(names = "--seed", paramLabel = "N", description = "The seed of the fault draw. Default: the clock.")
    private Long seed;

    @Option(names = "--stages", split = ",", paramLabel = "STAGE",
            converter = RunCommand.StageName.class, defaultValue = "v4-watchdog,v5-pubsub-retry,v6-redlock",
            description = "The stages to soak, in turn. Default: ${DEFAULT-VALUE}.")
    private List<Stage> stages;

    @Option(names = "--report", paramLabel = "FILE", description = "Also write the report, in Markdown, to FILE.")
    private Path report;

    @Spec
    private CommandSpec spec;

    /** Soaks each stage for its share of the time; the exit status. */
    @Override
    public Integer call() throws InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        long chosenSeed = seed != null ? seed : System.currentTimeMillis();
        Duration each = Duration.ofMillis((long) (minutes * 60_000 / stages.size()));
        List<SoakVerdict> verdicts = new ArrayList<>();
        try (RedisFixture fixture = RedisFixture.fromSystemProperty()) {
            out.printf("soak: %s each on %s, seed %d (replay with --seed %d)%n", each, fixture.description(),
                    chosenSeed, chosenSeed);
            out.flush();
            PrintStream progress = new PrintStream(System.out, true, StandardCharsets.UTF_8);
            for (Stage stage : stages) {
                verdicts.add(Soak.run(stage, fixture, Soak.Settings.of(each, chosenSeed), progress));
            }
            String markdown = SoakReport.markdown(verdicts, chosenSeed, fixture.description());
            out.println();
            out.println(markdown);
            if (report != null) {
                write(report, markdown);
            }
        }
        return verdicts.stream().allMatch(SoakVerdict::passed) ? 0 : 1;
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
}
