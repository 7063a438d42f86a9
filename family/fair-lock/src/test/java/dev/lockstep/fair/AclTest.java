package dev.lockstep.fair;

import dev.lockstep.testkit.contract.AclContract;

/** The fair lock works under the ACL rule its lesson documents, and fails naming {@code time} without it. */
class AclTest extends AclContract {

    AclTest() {
        super("fair-lock", FairLocks.class, "+time");
    }
}
