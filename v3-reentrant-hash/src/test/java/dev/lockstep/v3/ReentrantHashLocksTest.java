package dev.lockstep.v3;

import static dev.lockstep.Guarantee.LIVENESS_AFTER_CRASH;
import static dev.lockstep.Guarantee.OWNER_ONLY_RELEASE;
import static dev.lockstep.Guarantee.REENTRANT;

import dev.lockstep.testkit.contract.LockContract;
import dev.lockstep.testkit.contract.StageSpec;

/** Stage 3 counts holds per owner: the holder may lock again, and only its last unlock releases. */
@StageSpec(name = "v3-reentrant-hash", claims = {LIVENESS_AFTER_CRASH, OWNER_ONLY_RELEASE, REENTRANT})
class ReentrantHashLocksTest extends LockContract {
}
