package dev.lockstep.examples.inventory.load;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockstep.examples.inventory.Stage;
import org.junit.jupiter.api.Test;

/**
 * The load run's read-gap variant, beside {@link LoadRunTest}: stage 7 refuses the order woken
 * between another order's read and write.
 * It runs stage 7 alone, to keep the module's tests short: the contract's {@code fenced-read-gap}
 * scenario reproduces the gap on every earlier stage.
 */
class ReadGapLoadRunTest extends OwnRedisLoadRun {

    @Test
    void stageSevenRefusesAnOrderThatWakesBetweenAnotherOrdersReadAndWrite() throws Exception {
        RunResult kept = load.run(Variant.READ_GAP, Stage.V7_FENCING);
        System.out.println(Report.line(kept));
        assertAll(
                () -> assertTrue(kept.claimed(), "stage 7 claims to survive " + Variant.READ_GAP.title),
                () -> assertEquals(0, kept.oversold(), "stage 7 sold units twice: " + kept),
                () -> assertTrue(kept.lockBusy() > 0, "the woken order was not refused: " + kept),
                () -> assertEquals(0, kept.otherAnswers(), "answers other than 201, 409, 503"));
    }
}
