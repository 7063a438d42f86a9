package dev.lockstep.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockstep.lab.Colour.Mode;
import dev.lockstep.testkit.scenario.Outcome;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ColourTest {

    private static final String ESC = "\u001b[";

    @Test
    void autoColoursOnlyATerminal() {
        assertFalse(Colour.enabled(Mode.AUTO, false, Map.of()), "a pipe, a file or captured output");
        assertTrue(Colour.enabled(Mode.AUTO, true, Map.of("TERM", "xterm-256color")));
        assertFalse(Colour.enabled(Mode.AUTO, true, Map.of("NO_COLOR", "1")), "no-color.org");
        assertFalse(Colour.enabled(Mode.AUTO, true, Map.of("TERM", "dumb")));
        assertFalse(Colour.isTerminal(null), "no console: output is redirected");
    }

    @Test
    void alwaysAndNeverOverrideTheTerminal() {
        assertTrue(Colour.enabled(Mode.ALWAYS, false, Map.of("NO_COLOR", "1")));
        assertFalse(Colour.enabled(Mode.NEVER, true, Map.of()));
    }

    @Test
    void thisTestsOutputIsNotATerminal() {
        // Surefire captures the forked JVM's output, as a pipe would.
        assertFalse(Colour.enabled(Mode.AUTO));
    }

    @Test
    void plainReportIsTheOutcomesOwnAndColourOnlyAddsEscapeCodes() throws Exception {
        Outcome outcome = SvgTimelineTest.foreignUnlock();

        String plain = Report.of(outcome, false, false);
        String colour = Report.of(outcome, true, false);

        assertFalse(plain.contains(ESC), plain);
        assertTrue(plain.startsWith(outcome.report()), plain);
        assertTrue(plain.contains("  T6 "), plain);
        assertTrue(colour.contains(ESC), colour);
        assertTrue(colour.contains("\u001b[1;97;41mx2\u001b[0m"), "the overlap marker, white on red");
        assertEquals(plain, colour.replaceAll("\u001b\\[[0-9;]*m", ""));
    }
}
