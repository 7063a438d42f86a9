package dev.lockstep.examples.inventory.load;

import dev.lockstep.examples.inventory.Stage;
import org.junit.jupiter.api.Test;

/** The load run's paused-instance variant, beside {@link LoadRunTest}: stage 6 oversells, stage 7 does not. */
class PausedInstanceLoadRunTest extends OwnRedisLoadRun {

    @Test
    void stageSixOversellsWithAnInstancePausedMidOrderAndStageSevenDoesNot() throws Exception {
        beforeOversellsAndFirstDoesNot(Variant.PAUSED_INSTANCE, Stage.V6_REDLOCK, Stage.V7_FENCING);
    }
}
