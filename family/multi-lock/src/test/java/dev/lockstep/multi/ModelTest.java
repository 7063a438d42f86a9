package dev.lockstep.multi;

import dev.lockstep.testkit.contract.ModelContract;

/** The lock over several names against the reference model: one name held alone and in a group at once. */
class ModelTest extends ModelContract {

    ModelTest() {
        super("multi-lock", MultiNameLocks.class);
    }
}
