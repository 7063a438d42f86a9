package dev.lockstep.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class LabTest {

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @Test
    void runPlaysOneScenarioAndShowsV1Reproducing() {
        int status = lab("run", "v1-setnx", "foreign-unlock");

        assertEquals(0, status, err::toString);
        assertTrue(out.toString().contains("reproduced"), out::toString);
        assertTrue(out.toString().contains("| v1-setnx | reproduced |"), out::toString);
    }

    @Test
    void unknownStageIsAUsageErrorListingTheKnownOnes() {
        int status = lab("run", "v9-nope", "foreign-unlock");

        assertEquals(2, status);
        assertTrue(err.toString().contains("no stage 'v9-nope'; known: [v1-setnx, "), err::toString);
    }

    private int lab(String... args) {
        return new CommandLine(new Lab()).setOut(new PrintWriter(out)).setErr(new PrintWriter(err)).execute(args);
    }
}
