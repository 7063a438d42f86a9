package dev.lockstep.examples.inventory.load;

import dev.lockstep.examples.inventory.Stage;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The load run's claims, on a smaller load: under each variant, the first stage that claims to
 * survive it sells no unit twice, and the stage before it does. The paused-instance and read-gap
 * variants run beside it ({@link PausedInstanceLoadRunTest}, {@link ReadGapLoadRunTest}).
 */
class LoadRunTest extends OwnRedisLoadRun {

    @ParameterizedTest(name = "{0}: {1} oversells, {2} does not")
    @CsvSource({
        "PLAIN, NONE, V1_SETNX",
        "WORK_OUTLASTS_LEASE, V3_REENTRANT_HASH, V4_WATCHDOG",
    })
    void theStageBeforeOversellsAndTheFirstThatClaimsTheVariantDoesNot(Variant variant, Stage before, Stage first)
            throws Exception {
        beforeOversellsAndFirstDoesNot(variant, before, first);
    }
}
