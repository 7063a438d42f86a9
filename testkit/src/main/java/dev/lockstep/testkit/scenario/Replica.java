package dev.lockstep.testkit.scenario;

import dev.lockstep.testkit.fault.FaultyLink;
import dev.lockstep.testkit.fixture.RedisNode;

/**
 * A replica a scenario started ({@link ScenarioContext#replicate}), and the link its replication
 * runs through, so the story can make it lag or go dark.
 *
 * @param node the replica
 * @param link the replication's way to its master
 */
public record Replica(RedisNode node, FaultyLink link) {
}
