package dev.lockstep.lab;

import dev.lockstep.testkit.scenario.Catalog;
import dev.lockstep.testkit.scenario.Scenario;
import dev.lockstep.testkit.stage.Stage;
import dev.lockstep.testkit.stage.Stages;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.TypeConversionException;

/** {@code lab run STAGE SCENARIO}: plays one scenario on one stage and prints its timeline. */
@Command(name = "run", mixinStandardHelpOptions = true,
        description = "Plays one scenario on one stage and prints its timeline (see 'lab list' for the names).")
final class RunCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "STAGE", converter = StageName.class,
            description = "A stage, named by its module, e.g. v1-setnx.")
    private Stage stage;

    @Parameters(index = "1", paramLabel = "SCENARIO", converter = ScenarioId.class,
            description = "A scenario id, e.g. foreign-unlock.")
    private Scenario scenario;

    @ParentCommand
    private Lab lab;

    /** Plays the scenario; the exit status. */
    @Override
    public Integer call() {
        return lab.session().play(List.of(stage), List.of(scenario));
    }

    /** Turns a module name into its stage; an unknown name is a usage error that lists the known ones. */
    static final class StageName implements ITypeConverter<Stage> {

        /** The stage named {@code name}. */
        @Override
        public Stage convert(String name) {
            try {
                return Stages.named(name);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }

    /** Turns an id into its scenario; an unknown id is a usage error that lists the known ones. */
    static final class ScenarioId implements ITypeConverter<Scenario> {

        /** The scenario with id {@code id}. */
        @Override
        public Scenario convert(String id) {
            try {
                return Catalog.byId(id);
            } catch (NoSuchElementException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }
}
