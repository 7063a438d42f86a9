package dev.lockstep.fair;

import dev.lockstep.testkit.contract.ModelContract;

/** The fair lock against the reference model, on the suite's fixed seeds. */
class ModelTest extends ModelContract {

    ModelTest() {
        super("fair-lock", FairLocks.class);
    }
}
