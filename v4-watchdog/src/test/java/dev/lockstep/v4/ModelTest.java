package dev.lockstep.v4;

import dev.lockstep.testkit.contract.ModelContract;

/** Stage 4 against the reference model, on the suite's fixed seeds. */
class ModelTest extends ModelContract {

    ModelTest() {
        super("v4-watchdog", WatchdogLocks.class);
    }
}
