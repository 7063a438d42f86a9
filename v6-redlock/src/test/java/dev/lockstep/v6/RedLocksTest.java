package dev.lockstep.v6;

import static dev.lockstep.Guarantee.EFFICIENT_WAIT;
import static dev.lockstep.Guarantee.FAILOVER_SAFE;
import static dev.lockstep.Guarantee.LEASE_LOSS_SIGNAL;
import static dev.lockstep.Guarantee.LEASE_RENEWAL;
import static dev.lockstep.Guarantee.LIVENESS_AFTER_CRASH;
import static dev.lockstep.Guarantee.OWNER_ONLY_RELEASE;
import static dev.lockstep.Guarantee.REENTRANT;
import static dev.lockstep.Guarantee.RETRY_SAFE;
import static dev.lockstep.Guarantee.WAKE_AFTER_RECONNECT;

import dev.lockstep.testkit.contract.LockContract;
import dev.lockstep.testkit.contract.StageSpec;

/** Stage 6 survives the loss of a master; a node that restarts empty remains its documented limit. */
@StageSpec(name = "v6-redlock", claims = {LIVENESS_AFTER_CRASH, OWNER_ONLY_RELEASE,
        REENTRANT, LEASE_RENEWAL, LEASE_LOSS_SIGNAL, RETRY_SAFE, EFFICIENT_WAIT, WAKE_AFTER_RECONNECT, FAILOVER_SAFE})
class RedLocksTest extends LockContract {
}
