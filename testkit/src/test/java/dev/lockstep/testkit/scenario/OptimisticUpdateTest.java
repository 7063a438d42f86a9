package dev.lockstep.testkit.scenario;

import static dev.lockstep.Guarantee.FENCED;

import dev.lockstep.testkit.contract.BeyondRedisContract;
import dev.lockstep.testkit.contract.StageSpec;

/** With no lock at all, a version checked on every write refuses the paused holder's stale write, and the loser retries. */
@StageSpec(name = "optimistic-update", claims = FENCED)
class OptimisticUpdateTest extends BeyondRedisContract {
}
