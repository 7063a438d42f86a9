package dev.lockstep.testkit.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockstep.testkit.model.Alphabet.Cover;
import dev.lockstep.testkit.model.Alphabet.Coverage;
import dev.lockstep.testkit.model.Step.Kind;
import dev.lockstep.testkit.stage.Stage;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Every public method a user calls is named in the explorer's alphabet, and the alphabet names
 * nothing else; a method covered by steps names step kinds the draw makes; every step kind is drawn.
 */
class AlphabetTest {

    /** A setup that has every feature a step kind may need: a read side and fencing tokens (the group side needs no kind). */
    private static final ModelSetup EVERYTHING = new ModelSetup(Stage.lockFree("drawn"), Set.of(), Duration.ofMillis(600),
            true, true, false);

    @Test
    void theAlphabetNamesEveryPublicMethodOfTheSurface() {
        assertEquals(Alphabet.surface(), new TreeSet<>(Alphabet.coverage().keySet()),
                "a public method without a place in the explorer's alphabet (left), or a name the surface no longer has (right): "
                        + "draw the new method as a step, or name it in Alphabet");
    }

    @Test
    void aMethodCoveredBySteps_namesKindsTheDrawMakes() {
        Set<Kind> drawn = drawn();
        Map<String, Set<Kind>> missing = new TreeMap<>();
        Alphabet.coverage().forEach((method, cover) -> {
            if (cover.how() == Coverage.STEP && (cover.kinds().isEmpty() || !drawn.containsAll(cover.kinds()))) {
                missing.put(method, cover.kinds());
            }
        });
        assertEquals(Map.of(), missing, "methods whose step kinds are never drawn");
    }

    @Test
    void everyOtherCoverageSaysWhy() {
        for (Map.Entry<String, Cover> entry : Alphabet.coverage().entrySet()) {
            assertTrue(entry.getValue().how() == Coverage.STEP || !entry.getValue().reason().isBlank(),
                    entry.getKey() + " is no step and gives no reason");
        }
    }

    @Test
    void everyStepKindIsDrawn() {
        assertEquals(EnumSet.allOf(Kind.class), drawn(), "step kinds the draw never makes");
    }

    private static Set<Kind> drawn() {
        return StepDraw.draw(EVERYTHING, 1, 5000).stream().map(Step::kind).collect(Collectors.toSet());
    }
}
