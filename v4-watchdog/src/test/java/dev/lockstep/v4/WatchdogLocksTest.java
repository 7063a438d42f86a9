package dev.lockstep.v4;

import static dev.lockstep.Guarantee.LEASE_LOSS_SIGNAL;
import static dev.lockstep.Guarantee.LEASE_RENEWAL;
import static dev.lockstep.Guarantee.LIVENESS_AFTER_CRASH;
import static dev.lockstep.Guarantee.OWNER_ONLY_RELEASE;
import static dev.lockstep.Guarantee.REENTRANT;
import static dev.lockstep.Guarantee.REPLICATED_ACQUIRE;
import static dev.lockstep.Guarantee.RETRY_SAFE;

import dev.lockstep.testkit.contract.LockContract;
import dev.lockstep.testkit.contract.StageSpec;

/**
 * Stage 4 renews the lease while the holder lives, tells the holder when a lease is lost, and
 * keeps a retried lock call from leaving a hold that renewals would keep forever.
 */
@StageSpec(name = "v4-watchdog", claims = {LIVENESS_AFTER_CRASH, OWNER_ONLY_RELEASE,
        REENTRANT, LEASE_RENEWAL, LEASE_LOSS_SIGNAL, RETRY_SAFE, REPLICATED_ACQUIRE})
class WatchdogLocksTest extends LockContract {
}
