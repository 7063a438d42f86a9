package dev.lockstep.v2;

import dev.lockstep.testkit.contract.AclContract;

/** Stage 2 works under the ACL rule its lesson documents, and fails naming {@code set} without it. */
class AclTest extends AclContract {

    AclTest() {
        super("v2-owner-check", OwnerCheckLocks.class, "+set");
    }
}
