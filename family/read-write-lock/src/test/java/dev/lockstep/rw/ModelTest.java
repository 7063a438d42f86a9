package dev.lockstep.rw;

import dev.lockstep.testkit.contract.ModelContract;

/** The read-write lock (both sides) against the reference model, on the suite's fixed seeds. */
class ModelTest extends ModelContract {

    ModelTest() {
        super("read-write-lock", ReadWriteLocks.class);
    }
}
