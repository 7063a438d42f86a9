package dev.lockstep.v3;

import dev.lockstep.testkit.contract.AclContract;

/** Stage 3 works under the ACL rule its lesson documents, and fails naming {@code hincrby} without it. */
class AclTest extends AclContract {

    AclTest() {
        super("v3-reentrant-hash", ReentrantHashLocks.class, "+hincrby");
    }
}
