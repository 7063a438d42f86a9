package dev.lockstep.v1;

import static dev.lockstep.Guarantee.LIVENESS_AFTER_CRASH;

import dev.lockstep.testkit.contract.LockContract;
import dev.lockstep.testkit.contract.StageSpec;

/** Stage 1 survives a crashed holder and nothing else: every other scenario must reproduce. */
@StageSpec(name = "v1-setnx", claims = LIVENESS_AFTER_CRASH)
class SetnxLocksTest extends LockContract {
}
