package dev.lockstep.v7;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockstep.FencedLock;
import dev.lockstep.LockOptions;
import dev.lockstep.testkit.fixture.RedisClusterFixture;
import dev.lockstep.v7.internal.TokenCounters;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import redis.clients.jedis.RedisClusterClient;

/**
 * Stage 7 on a real 3-master Redis Cluster: the lock script touches the lock's hash and its
 * slot's token counter, so both must live in one slot, also for names with their own hash tag.
 * Were they apart, Redis would refuse the script (CROSSSLOT) and no token would come back.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ClusterTest {

    @Test
    void locksOnEveryMasterHandOutGrowingTokens() {
        try (RedisClusterFixture cluster = RedisClusterFixture.start(3);
             RedisClusterClient redis = cluster.newClient();
             FencedLocks locks = new FencedLocks(redis, LockOptions.defaults())) {
            Set<Integer> slots = new HashSet<>();
            for (String name : List.of("order-1", "order-2", "order-3", "order-4", "user{7}:cart", "{order}-5", "a{b}c")) {
                FencedLock lock = locks.get(name);
                long first = lock.lockAndGetToken();
                lock.unlock();
                long second = lock.lockAndGetToken();
                lock.unlock();
                assertTrue(first < second, name + ": tokens " + first + ", " + second);
                slots.add(RedisClusterFixture.slot(name));
                assertEquals(cluster.masterOfKey(name), cluster.masterOfKey(TokenCounters.keyFor(name)), name);
            }
            assertTrue(cluster.masters().stream().allMatch(master -> slots.stream()
                    .anyMatch(slot -> cluster.masterOf(slot) == master)), "every master served a lock: " + slots);
        }
    }
}
