package dev.lockstep.v6;

import static dev.lockstep.v6.QuorumTestSupport.hash;
import static dev.lockstep.v6.QuorumTestSupport.key;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockstep.DistLock;
import dev.lockstep.LeaseLoss;
import dev.lockstep.LockOptions;
import dev.lockstep.testkit.fixture.RedisFixture;
import dev.lockstep.testkit.fixture.RedisNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.UnifiedJedis;

/**
 * A stray hold must not outlive the unlock. A master that stalls mid-round may apply a grant
 * after the round was given up; the fan-out now queues the undo behind it on the same lane, but a
 * minority can still end up counting one more hold of this thread than the others (a lost undo,
 * a restart from an older AOF).
 *
 * <p>If the same thread then takes the lock, it holds nothing by its own count, so the lock
 * script takes the stray field over at a count of 1 (stage 4's rule) instead of counting 2 on
 * that minority. One unlock then releases every master. Were a minority still to answer "still
 * held", the holder's own count says this was its last unlock: otherwise it would still report
 * the lock held after its only unlock, keep renewing, and then signal a lease loss for a lock it
 * released.
 *
 * <p>The test plants exactly the state a late grant leaves (the thread's field, count 1, a
 * lease) on 2 of 5 masters, so it is deterministic.
 */
class LateGrantTest {

    @Test
    void aLateGrantOnAMinorityDoesNotKeepTheLockHeldAfterUnlock() throws Exception {
        String name = "late-grant";
        Duration lease = Duration.ofMillis(600);
        try (RedisFixture fixture = RedisFixture.processes()) {
            List<RedisNode> nodes = new ArrayList<>();
            List<UnifiedJedis> clients = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                RedisNode node = fixture.start();
                QuorumTestSupport.loadScripts(node);
                nodes.add(node);
            }
            try {
                for (RedisNode node : nodes) {
                    RedisClient client = node.newClient();
                    clients.add(client);
                }
                try (RedLocks locks = new RedLocks(clients, LockOptions.defaults().withWatchdogTimeout(lease))) {
                    DistLock lock = locks.get(name);
                    List<LeaseLoss> losses = new CopyOnWriteArrayList<>();
                    lock.onLeaseLost(losses::add);
                    String owner = locks.clientId() + ":" + Thread.currentThread().getId();
                    // What a stalled master's late lock script leaves: this thread's field, one hold, a lease.
                    for (RedisNode node : nodes.subList(3, 5)) {
                        try (Jedis admin = node.admin()) {
                            admin.hset(key(name), owner, "1");
                            admin.pexpire(key(name), Duration.ofSeconds(30).toMillis());
                        }
                    }

                    lock.lock();
                    for (RedisNode node : nodes) {
                        assertEquals(Map.of(owner, "1"), hash(node, name), node + ": one hold, the stray one taken over");
                    }

                    lock.unlock();
                    assertFalse(lock.isHeldByCurrentThread(), "after its only unlock the thread still reports the lock held");
                    for (RedisNode node : nodes) {
                        assertEquals(Map.of(), hash(node, name), node + " kept a hold after the only unlock");
                    }
                    IllegalMonitorStateException second = assertThrows(IllegalMonitorStateException.class, lock::unlock,
                            "a second unlock of a released lock must fail");
                    assertTrue(second.getMessage().contains("not held"), second.getMessage());
                    assertTrue(losses.isEmpty(), "a lease loss was signalled for a released lock: " + losses);
                }
            } finally {
                for (UnifiedJedis client : clients) {
                    client.close();
                }
            }
        }
    }
}
