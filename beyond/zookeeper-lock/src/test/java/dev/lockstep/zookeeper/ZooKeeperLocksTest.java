package dev.lockstep.zookeeper;

import static dev.lockstep.Guarantee.FAILOVER_SAFE;
import static dev.lockstep.Guarantee.FENCED;
import static dev.lockstep.Guarantee.LIVENESS_AFTER_CRASH;
import static dev.lockstep.Guarantee.OWNER_ONLY_RELEASE;
import static dev.lockstep.Guarantee.REENTRANT;

import dev.lockstep.testkit.contract.BeyondRedisContract;
import dev.lockstep.testkit.contract.StageSpec;

/** The ZooKeeper lock keeps its hold through the loss of the ensemble's leader, and its zxid tokens fence a paused holder. */
@StageSpec(name = "zookeeper-lock", claims = {LIVENESS_AFTER_CRASH, OWNER_ONLY_RELEASE, REENTRANT, FAILOVER_SAFE, FENCED})
class ZooKeeperLocksTest extends BeyondRedisContract {
}
