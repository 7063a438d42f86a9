package dev.lockstep.testkit.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** Every public method a user calls is named in the explorer's alphabet, and the alphabet names nothing else. */
class AlphabetTest {

    @Test
    void theAlphabetNamesEveryPublicMethodOfTheSurface() {
        assertEquals(Alphabet.surface(), new TreeSet<>(Alphabet.coverage().keySet()),
                "a public method without a place in the explorer's alphabet (left), or a name the surface no longer has (right): "
                        + "draw the new method as a step, or name it in Alphabet");
    }
}
