package dev.lockstep.v6;

import dev.lockstep.testkit.contract.ModelContract;

/** Stage 6 against the reference model, on the suite's fixed seeds. */
class ModelTest extends ModelContract {

    ModelTest() {
        super("v6-redlock", RedLocks.class);
    }
}
