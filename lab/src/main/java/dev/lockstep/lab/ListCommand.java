package dev.lockstep.lab;

import dev.lockstep.testkit.scenario.Catalog;
import dev.lockstep.testkit.scenario.Scenario;
import dev.lockstep.testkit.stage.Stage;
import dev.lockstep.testkit.stage.Stages;
import java.io.PrintWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code lab list}: the stages and the scenarios, one line each. */
@Command(name = "list", mixinStandardHelpOptions = true,
        description = "Lists the stages and the scenarios (with the guarantee each one tests and its story).")
final class ListCommand implements Runnable {

    @Spec
    private CommandSpec spec;

    /** Prints the stages, then the scenarios with their guarantee and story. */
    @Override
    public void run() {
        PrintWriter out = spec.commandLine().getOut();
        out.println("Stages:");
        for (Stage stage : Stages.all()) {
            out.printf("  %-20s %s%n", stage.name(), stage.locksClass().getName());
        }
        out.println("Beyond Redis (they play " + String.join(", ", Scenario.BEYOND_REDIS.stream().sorted().toList()) + "):");
        for (Stage stage : Stages.beyondRedis()) {
            out.printf("  %-20s %s%n", stage.name(), stage.locksClass() == null
                    ? "no lock: every write checks the row's version" : stage.locksClass().getName());
        }
        out.println("Scenarios:");
        for (Scenario scenario : Catalog.all()) {
            out.printf("  %-22s %-21s %s%n", scenario.id(), scenario.guarantee(), scenario.story());
        }
        out.flush();
    }
}
