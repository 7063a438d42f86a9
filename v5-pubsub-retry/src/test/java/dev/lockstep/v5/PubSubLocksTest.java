package dev.lockstep.v5;

import static dev.lockstep.Guarantee.EFFICIENT_WAIT;
import static dev.lockstep.Guarantee.LEASE_LOSS_SIGNAL;
import static dev.lockstep.Guarantee.LEASE_RENEWAL;
import static dev.lockstep.Guarantee.LIVENESS_AFTER_CRASH;
import static dev.lockstep.Guarantee.OWNER_ONLY_RELEASE;
import static dev.lockstep.Guarantee.REENTRANT;
import static dev.lockstep.Guarantee.REPLICATED_ACQUIRE;
import static dev.lockstep.Guarantee.RETRY_SAFE;
import static dev.lockstep.Guarantee.WAKE_AFTER_RECONNECT;

import dev.lockstep.testkit.contract.LockContract;
import dev.lockstep.testkit.contract.StageSpec;

/** Stage 5 keeps everything stage 4 promises and lets waiters sleep until a release is published. */
@StageSpec(name = "v5-pubsub-retry", claims = {LIVENESS_AFTER_CRASH,
        OWNER_ONLY_RELEASE, REENTRANT, LEASE_RENEWAL, LEASE_LOSS_SIGNAL, RETRY_SAFE, EFFICIENT_WAIT, WAKE_AFTER_RECONNECT,
        REPLICATED_ACQUIRE})
class PubSubLocksTest extends LockContract {
}
