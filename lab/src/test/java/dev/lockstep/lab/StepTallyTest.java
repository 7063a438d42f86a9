package dev.lockstep.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.lockstep.testkit.model.Step;
import dev.lockstep.testkit.model.Step.Kind;
import dev.lockstep.testkit.model.Step.Side;
import dev.lockstep.testkit.model.Step.WireFault;
import java.util.List;
import org.junit.jupiter.api.Test;

class StepTallyTest {

    @Test
    void countsEachKindAndFaultPerStageAndLeavesOutWhatNoStageDrew() {
        StepTally tally = new StepTally();
        tally.add("v4-watchdog", List.of(step(Kind.LOCK, WireFault.NONE), step(Kind.UNLOCK, WireFault.LOST_REPLY)));
        tally.add("v4-watchdog", List.of(step(Kind.LOCK, WireFault.NONE)));
        tally.add("fair-lock", List.of(step(Kind.UNLOCK, WireFault.NONE)));
        assertEquals("""
                | step | v4-watchdog | fair-lock |
                |---|---:|---:|
                | lock | 2 | 0 |
                | unlock | 1 | 1 |
                | with lost reply | 1 | 0 |
                """, tally.markdown());
    }

    private static Step step(Kind kind, WireFault fault) {
        return new Step(kind, 0, 0, Side.WRITE, 0, fault);
    }
}
