package dev.lockstep.fair;

import dev.lockstep.testkit.contract.AclContract;

/** The fair lock works under the ACL rule its lesson documents, and fails naming {@code lindex} without it: even a free lock asks its queue. */
class AclTest extends AclContract {

    AclTest() {
        super("fair-lock", FairLocks.class, "+lindex");
    }
}
