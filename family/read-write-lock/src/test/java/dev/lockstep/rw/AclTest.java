package dev.lockstep.rw;

import dev.lockstep.testkit.contract.AclContract;

/** The read-write lock works under the ACL rule its lesson documents, and fails naming {@code hset} without it. */
class AclTest extends AclContract {

    AclTest() {
        super("read-write-lock", ReadWriteLocks.class, "stock", "+hset");
    }
}
