package dev.lockstep.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
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
    void outWritesThePictureThePageAndTheScoreboardAndPipedOutputIsPlain(@TempDir Path dir) throws Exception {
        int status = lab("--out", dir.toString(), "run", "v1-setnx", "foreign-unlock");

        assertEquals(0, status, err::toString);
        assertFalse(out.toString().contains("\u001b["), "no colour when the output is not a terminal");
        assertTrue(out.toString().contains(" x2  "), out::toString);
        assertTrue(out.toString().matches("(?s).*T1 .*T2 .*T3 .*T4 .*T5 .*T6 .*"), out::toString);
        assertEquals("| stage | foreign-unlock |\n|---|---|\n| v1-setnx | reproduced |\n",
                Files.readString(dir.resolve("scoreboard.md")));
        assertTrue(Files.readString(dir.resolve("index.md")).contains("[reproduced](v1-setnx/foreign-unlock.md)"));
        String page = Files.readString(dir.resolve("v1-setnx/foreign-unlock.md"));
        assertTrue(page.contains("![Timeline of v1-setnx / foreign-unlock](foreign-unlock.svg)"), page);
        assertTrue(page.contains("**VIOLATION:** C took the lock"), page);
        Document svg = SvgTimelineTest.parse(Files.readString(dir.resolve("v1-setnx/foreign-unlock.svg")));
        assertTrue(svg.getDocumentElement().getTextContent().contains("A's unlock deleted a lock that was B's"));
    }

    @Test
    void colourAlwaysPaintsTheTimeline() {
        int status = lab("--color=always", "run", "v1-setnx", "foreign-unlock");

        assertEquals(0, status, err::toString);
        assertTrue(out.toString().contains("\u001b[1;97;41mx2"), out::toString);
    }

    @Test
    void aShortSoakReportsEveryColumnAndWritesTheReport(@TempDir Path dir) throws Exception {
        Path report = dir.resolve("soak.md");
        int status = lab("soak", "--minutes", "0.05", "--seed", "1", "--stages", "v5-pubsub-retry", "--report",
                report.toString());

        assertEquals(0, status, out::toString);
        String written = Files.readString(report);
        assertTrue(written.contains("seed 1"), written);
        assertTrue(written.matches("(?s).*\\| v5-pubsub-retry \\| \\d+ \\| [1-9]\\d* \\|.*"),
                "some faults and many acquisitions: " + written);
        assertTrue(written.contains("Overlaps: none.") && written.contains("Stuck holds: none."), written);
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
