package dev.lockstep.multi;

import static dev.lockstep.Guarantee.ALL_OR_NOTHING;
import static dev.lockstep.Guarantee.EFFICIENT_WAIT;
import static dev.lockstep.Guarantee.LEASE_LOSS_SIGNAL;
import static dev.lockstep.Guarantee.LEASE_RENEWAL;
import static dev.lockstep.Guarantee.LIVENESS_AFTER_CRASH;
import static dev.lockstep.Guarantee.NO_DEADLOCK;
import static dev.lockstep.Guarantee.OWNER_ONLY_RELEASE;
import static dev.lockstep.Guarantee.REENTRANT;
import static dev.lockstep.Guarantee.REPLICATED_ACQUIRE;
import static dev.lockstep.Guarantee.RETRY_SAFE;
import static dev.lockstep.Guarantee.WAKE_AFTER_RECONNECT;

import dev.lockstep.testkit.contract.LockContract;
import dev.lockstep.testkit.contract.StageSpec;

/** The client over several names runs every scenario, keeps everything stage 5 promises, and takes names without deadlock, all or none. */
@StageSpec(name = "multi-lock", claims = {LIVENESS_AFTER_CRASH, OWNER_ONLY_RELEASE, REENTRANT,
        LEASE_RENEWAL, LEASE_LOSS_SIGNAL, RETRY_SAFE, EFFICIENT_WAIT, WAKE_AFTER_RECONNECT, REPLICATED_ACQUIRE,
        NO_DEADLOCK, ALL_OR_NOTHING})
class MultiNameLocksTest extends LockContract {
}
