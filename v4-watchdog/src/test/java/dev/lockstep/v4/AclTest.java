package dev.lockstep.v4;

import dev.lockstep.testkit.contract.AclContract;

/** Stage 4 works under the ACL rule its lesson documents, and fails naming {@code hset} without it. */
class AclTest extends AclContract {

    AclTest() {
        super("v4-watchdog", WatchdogLocks.class, "+hset");
    }
}
