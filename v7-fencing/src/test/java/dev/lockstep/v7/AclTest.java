package dev.lockstep.v7;

import dev.lockstep.testkit.contract.AclContract;

/** Stage 7 works under the ACL rule its lesson documents, and fails naming {@code incr} without it. */
class AclTest extends AclContract {

    AclTest() {
        super("v7-fencing", FencedLocks.class, "+incr");
    }
}
