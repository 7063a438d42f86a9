package dev.lockstep.v5;

import dev.lockstep.testkit.contract.ModelContract;

/** Stage 5 against the reference model, on the suite's fixed seeds. */
class ModelTest extends ModelContract {

    ModelTest() {
        super("v5-pubsub-retry", PubSubLocks.class);
    }
}
