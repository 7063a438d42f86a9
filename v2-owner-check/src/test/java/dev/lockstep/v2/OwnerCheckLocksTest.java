package dev.lockstep.v2;

import static dev.lockstep.Guarantee.LIVENESS_AFTER_CRASH;
import static dev.lockstep.Guarantee.OWNER_ONLY_RELEASE;

import dev.lockstep.testkit.contract.LockContract;
import dev.lockstep.testkit.contract.StageSpec;

/** Stage 2 adds the owner check: a late unlock can no longer delete a successor's lock. */
@StageSpec(name = "v2-owner-check", claims = {LIVENESS_AFTER_CRASH, OWNER_ONLY_RELEASE})
class OwnerCheckLocksTest extends LockContract {
}
