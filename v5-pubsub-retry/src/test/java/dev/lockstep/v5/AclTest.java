package dev.lockstep.v5;

import dev.lockstep.testkit.contract.AclContract;

/** Stage 5 works under the ACL rule its lesson documents, and fails naming {@code subscribe} without it. */
class AclTest extends AclContract {

    AclTest() {
        super("v5-pubsub-retry", PubSubLocks.class, "+subscribe");
    }
}
