package dev.lockstep.v1;

import dev.lockstep.testkit.contract.AclContract;

/** Stage 1 works under the ACL rule its lesson documents, and fails naming {@code set} without it. */
class AclTest extends AclContract {

    AclTest() {
        super("v1-setnx", SetnxLocks.class, "+set");
    }
}
