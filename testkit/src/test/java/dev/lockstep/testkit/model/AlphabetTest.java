package dev.lockstep.testkit.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.lockstep.testkit.model.Step.Kind;
import dev.lockstep.testkit.stage.Stage;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Every public method a user calls is named in the explorer's alphabet, and the alphabet names
 * nothing else; every step kind is drawn.
 */
class AlphabetTest {

    @Test
    void theAlphabetNamesEveryPublicMethodOfTheSurface() {
        assertEquals(Alphabet.surface(), new TreeSet<>(Alphabet.coverage().keySet()),
                "a public method without a place in the explorer's alphabet (left), or a name the surface no longer has (right): "
                        + "draw the new method as a step, or name it in Alphabet");
    }

    @Test
    void everyStepKindIsDrawn() {
        ModelSetup fencedReadWrite = new ModelSetup(Stage.lockFree("drawn"), Set.of(), Duration.ofMillis(600), true, true);
        Set<Kind> drawn = StepDraw.draw(fencedReadWrite, 1, 5000).stream().map(Step::kind).collect(Collectors.toSet());
        assertEquals(EnumSet.allOf(Kind.class), drawn, "step kinds the draw never makes");
    }
}
