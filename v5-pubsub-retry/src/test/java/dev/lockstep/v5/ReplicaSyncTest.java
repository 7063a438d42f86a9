package dev.lockstep.v5;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockstep.DistLock;
import dev.lockstep.LockException;
import dev.lockstep.LockOptions;
import dev.lockstep.testkit.fixture.RedisFixture;
import dev.lockstep.testkit.fixture.RedisNode;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.RedisClient;

/**
 * What replica sync ({@code WAIT} after acquiring) buys and what it does not. It buys a lock the
 * replica already has when the acquisition returns. It does not buy availability or consensus:
 * with the replica stalled, no acquisition counts, and the master's copy is given back.
 */
class ReplicaSyncTest {

    private static final Duration SYNC = Duration.ofMillis(500);

    private RedisFixture fixture;
    private RedisNode master;
    private RedisNode replica;
    private RedisClient redis;
    private PubSubLocks locks;

    @BeforeEach
    void startReplicatedMaster() {
        fixture = RedisFixture.processes();
        master = fixture.start();
        replica = fixture.start();
        replica.replicaOf(master);
        master.awaitReplicated(replica, Duration.ofSeconds(10));
        redis = master.newClient();
        locks = new PubSubLocks(redis, LockOptions.defaults().withReplicaSync(1, SYNC));
    }

    @AfterEach
    void stop() {
        locks.close();
        redis.close();
        fixture.close();
    }

    @Test
    void anAcknowledgedLockIsOnTheReplicaWhenLockReturns() {
        DistLock lock = locks.get("synced");
        lock.lock();
        try (Jedis onReplica = replica.admin()) {
            assertTrue(onReplica.exists("synced"), "the replica should hold the lock as soon as lock() returns");
        }
        lock.unlock();
    }

    @Test
    void aStalledReplicaMakesAcquisitionFailAndLeavesNothing() {
        replica.pause();
        try {
            LockException e = assertThrows(LockException.class, () -> locks.get("stalled").tryLock(Duration.ZERO, null));
            assertTrue(e.getMessage().contains("replicas acknowledged"), e.getMessage());
            assertTrue(!redis.exists("stalled"), "a lock no replica acknowledged must be given back");
            assertTrue(!locks.get("stalled").isHeldByCurrentThread());
        } finally {
            replica.resume();
        }
    }
}
