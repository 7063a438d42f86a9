package dev.lockstep.testkit.contract;

import dev.lockstep.Guarantee;
import dev.lockstep.LockOptions;
import dev.lockstep.Locks;
import dev.lockstep.RedisUnreachableException;
import dev.lockstep.testkit.client.ClientProcess;
import dev.lockstep.testkit.fixture.RedisNode;
import dev.lockstep.testkit.history.Actor;
import dev.lockstep.testkit.scenario.ScenarioContext;
import dev.lockstep.testkit.stage.Stage;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.HostAndPort;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Part of {@link LockContract}: a server down, stalled or absent fails a lock call in bounded time; a stopped holder loses its lease. */
public interface ServerFaults extends StageUnderTest {

    @Test
    default void redisDownFailsLockWithinBoundedTime() {
        List<RedisNode> doomed = startNodes();
        Locks locks = open(doomed, LockOptions.defaults());
        doomed.forEach(RedisNode::kill);
        RedisUnreachableException e = assertTimeoutPreemptively(BOUNDED, () -> assertThrows(RedisUnreachableException.class,
                () -> locks.get("down").lock()));
        assertTrue(e.getMessage().contains("down"), "the message should name the lock: " + e.getMessage());
    }

    @Test
    default void redisStalledFailsLockWithinBoundedTime() {
        List<RedisNode> stalled = startNodes();
        Locks locks = open(stalled, LockOptions.defaults());
        stalled.forEach(RedisNode::pause);
        try {
            assertTimeoutPreemptively(BOUNDED, () -> assertThrows(RedisUnreachableException.class,
                    () -> locks.get("stalled").lock()));
        } finally {
            stalled.forEach(RedisNode::resume);
        }
    }

    @Test
    default void aStoppedHolderLosesTheLockWhenItsLeaseRunsOut() throws Exception {
        try (ScenarioContext context = new ScenarioContext(stage(), fixture())) {
            LockOptions options = Stage.leaseOptions(Duration.ofMillis(500));
            ClientProcess holder = context.process("A", options);
            Actor other = context.actor("B", options);
            holder.lock("stopped", null, BOUNDED);
            holder.pause();
            try {
                assertTrue(other.tryLock("stopped", Duration.ofSeconds(3), null),
                        "the lease of a stopped holder never ran out");
            } finally {
                holder.resume();
            }
            // Woken up, the holder still believes it holds the lock. Only an owner check stops its unlock.
            assertEquals(!claims(Guarantee.OWNER_ONLY_RELEASE), holder.unlock("stopped"),
                    "a resumed holder's stale unlock");
        }
    }

    @Test
    default void nothingListeningFailsLockWithinBoundedTime() {
        List<HostAndPort> nowhere = Collections.nCopies(stage().nodeCount(), new HostAndPort("127.0.0.1", 1));
        Locks locks = openAt(nowhere, LockOptions.defaults());
        assertTimeoutPreemptively(BOUNDED, () -> assertThrows(RedisUnreachableException.class,
                () -> locks.get("nowhere").tryLock(Duration.ofSeconds(30), null)));
    }

    @Test
    default void aFailedLockKeepsTheCallersInterrupt() {
        List<RedisNode> doomed = startNodes();
        Locks locks = open(doomed, LockOptions.defaults());
        doomed.forEach(RedisNode::kill);
        Thread.currentThread().interrupt();
        try {
            assertThrows(RedisUnreachableException.class, () -> locks.get("interrupted-and-down").lock());
        } finally {
            assertTrue(Thread.interrupted(), "lock() swallowed the caller's interrupt when it failed");
        }
    }
}
