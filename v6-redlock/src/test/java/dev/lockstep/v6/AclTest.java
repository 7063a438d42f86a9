package dev.lockstep.v6;

import dev.lockstep.testkit.contract.AclContract;

/** Stage 6 works under the ACL rule its lesson documents, and fails naming {@code hset} without it. */
class AclTest extends AclContract {

    AclTest() {
        super("v6-redlock", RedLocks.class, "+hset");
    }
}
