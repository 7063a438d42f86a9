package dev.lockstep.examples.inventory.load;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockstep.examples.inventory.Stage;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The load run's claims, on a smaller load: under each variant, the first stage that claims to
 * survive it sells no unit twice, and the stage before it does. Two instances of the service in
 * their own JVMs, real HTTP, one real Redis. The read-gap variant runs beside it
 * ({@link ReadGapLoadRunTest}).
 */
class LoadRunTest {

    private static LoadRun load;

    @BeforeAll
    static void startRedis() {
        load = new LoadRun(Path.of("target/load-logs"), true);
    }

    @AfterAll
    static void stopRedis() {
        load.close();
    }

    @ParameterizedTest(name = "{0}: {1} oversells, {2} does not")
    @CsvSource({
        "PLAIN, NONE, V1_SETNX",
        "WORK_OUTLASTS_LEASE, V3_REENTRANT_HASH, V4_WATCHDOG",
        "PAUSED_INSTANCE, V6_REDLOCK, V7_FENCING",
    })
    void theStageBeforeOversellsAndTheFirstThatClaimsTheVariantDoesNot(Variant variant, Stage before, Stage first)
            throws Exception {
        RunResult broken = load.run(variant, before);
        System.out.println(Report.line(broken));
        RunResult kept = load.run(variant, first);
        System.out.println(Report.line(kept));
        assertAll(
                () -> assertFalse(broken.claimed(), before + " does not claim to survive " + variant.title),
                () -> assertTrue(kept.claimed(), first + " claims to survive " + variant.title),
                () -> assertTrue(broken.oversold() > 0, before + " sold no unit twice: " + broken),
                () -> assertEquals(0, kept.oversold(), first + " sold units twice: " + kept),
                () -> assertEquals(0, broken.otherAnswers() + kept.otherAnswers(), "answers other than 201, 409, 503"));
    }
}
