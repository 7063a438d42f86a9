package dev.lockstep.v7;

import dev.lockstep.testkit.contract.ModelContract;

/** Stage 7 against the reference model, on the suite's fixed seeds. */
class ModelTest extends ModelContract {

    ModelTest() {
        super("v7-fencing", FencedLocks.class);
    }
}
