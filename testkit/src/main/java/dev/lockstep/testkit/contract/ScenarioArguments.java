package dev.lockstep.testkit.contract;

import dev.lockstep.testkit.scenario.Catalog;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.ArgumentsProvider;
import org.junit.jupiter.params.support.ParameterDeclarations;

/** Every scenario of the {@link Catalog}, for the stage the test class's {@link StageSpec} names. */
public final class ScenarioArguments implements ArgumentsProvider {

    @Override
    public Stream<? extends Arguments> provideArguments(ParameterDeclarations parameters, ExtensionContext context) {
        return Catalog.all().stream().map(scenario -> Arguments.of(Named.of(scenario.id(), scenario)));
    }
}
