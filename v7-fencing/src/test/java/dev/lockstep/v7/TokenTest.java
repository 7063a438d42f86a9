package dev.lockstep.v7;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockstep.FencedLock;
import dev.lockstep.LockOptions;
import dev.lockstep.testkit.client.LockThread;
import dev.lockstep.testkit.fixture.Await;
import dev.lockstep.testkit.fixture.SingleNodeTest;
import dev.lockstep.testkit.stage.Stage;
import dev.lockstep.testkit.watch.RedisTraffic;
import dev.lockstep.v7.internal.TokenCounters;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.util.JedisClusterCRC16;

/** Where tokens come from and what they promise: growing, per hold, from the grant itself, past any lock key. */
class TokenTest extends SingleNodeTest {

    private static final Duration DEADLINE = Duration.ofSeconds(10);

    private FencedLocks client() {
        return closedAfter(new FencedLocks(closedAfter(node.newClient()), LockOptions.defaults()));
    }

    @Test
    void everyNewHoldGetsAGreaterTokenWhicheverClientTakesIt() throws Exception {
        FencedLock ours = client().get("tokens-grow");
        FencedLock theirs = client().get("tokens-grow");
        long first = ours.lockAndGetToken();
        ours.unlock();
        try (LockThread other = new LockThread("other")) {
            long second = other.call(theirs::lockAndGetToken);
            other.run(theirs::unlock);
            long third = ours.lockAndGetToken();
            ours.unlock();
            assertTrue(first < second && second < third, "tokens " + first + ", " + second + ", " + third);
        }
    }

    @Test
    void aReentryKeepsItsHoldsToken() {
        FencedLock lock = client().get("reentry-token");
        long outer = lock.lockAndGetToken();
        assertEquals(outer, lock.lockAndGetToken(), "a re-entry is the same hold");
        lock.unlock();
        assertEquals(outer, lock.token(), "the outer hold goes on");
        lock.unlock();
        IllegalMonitorStateException e = assertThrows(IllegalMonitorStateException.class, lock::token);
        assertTrue(e.getMessage().contains("reentry-token"), e.getMessage());
    }

    /** A token belongs to a hold: a pooled thread must not carry it past its last unlock, lease lost or not. */
    @Test
    void theLastUnlockLeavesTheThreadNoToken() throws Exception {
        TokenLock lock = (TokenLock) client().get("token-forgotten");
        lock.lockAndGetToken();
        lock.lockAndGetToken();
        lock.unlock();
        assertTrue(lock.keepsToken(), "the outer hold lost its token");
        lock.unlock();
        assertFalse(lock.keepsToken(), "the thread kept the token of a hold it ended");
        assertTrue(lock.tryLock(Duration.ZERO, Duration.ofMillis(100)));
        Await.until("the explicit lease runs out", DEADLINE, () -> !lock.isHeldByCurrentThread());
        assertThrows(IllegalMonitorStateException.class, lock::unlock, "unlocking a lost lease");
        assertFalse(lock.keepsToken(), "the thread kept the token of a lost hold after its unlock");
    }

    @Test
    void noHoldNoToken() throws Exception {
        FencedLock lock = client().get("no-hold");
        assertThrows(IllegalMonitorStateException.class, lock::token, "never taken");
        assertTrue(lock.tryLock(Duration.ZERO, Duration.ofMillis(100)));
        Await.until("the explicit lease runs out", DEADLINE, () -> !lock.isHeldByCurrentThread());
        assertThrows(IllegalMonitorStateException.class, lock::token, "lease lost");
    }

    @Test
    void aTakenLockGivesNoToken() throws Exception {
        FencedLock lock = client().get("taken");
        lock.lock();
        try (LockThread other = new LockThread("other")) {
            assertNull(other.call(() -> lock.tryLockAndGetToken(Duration.ZERO, null)));
        } finally {
            lock.unlock();
        }
    }

    @Test
    void tokensKeepGrowingAfterTheLockKeyExpiresOrIsDeleted() throws Exception {
        FencedLock lock = client().get("outlived");
        FencedLock successor = client().get("outlived");
        Long first = lock.tryLockAndGetToken(Duration.ZERO, Duration.ofMillis(100));
        try (Jedis admin = node.admin(); LockThread other = new LockThread("successor")) {
            Await.until("the lock key expires", DEADLINE, () -> !admin.exists("outlived"));
            long second = lock.lockAndGetToken();
            admin.del("outlived");
            long third = other.call(successor::lockAndGetToken);
            other.run(successor::unlock);
            assertTrue(first < second && second < third, "tokens " + first + ", " + second + ", " + third);
            assertEquals(-1, admin.pttl(TokenCounters.keyFor("outlived")), "counters never expire, on purpose");
        }
    }

    @Test
    void theTokenComesWithTheGrantInOneRoundTrip() throws Exception {
        FencedLock lock = client().get("one-trip");
        lock.lockAndGetToken();
        lock.unlock();
        try (RedisTraffic traffic = new RedisTraffic(List.of(node)); Jedis admin = node.admin()) {
            lock.lockAndGetToken();
            // MONITOR reports in the order the server ran them: once it shows our PING, it has shown the lock's requests.
            admin.ping();
            Await.until("the monitor sees the PING", DEADLINE, () -> traffic.requests() >= 2);
            assertEquals(2, traffic.requests(), "the lock and its token in one script call, then the PING");
            lock.unlock();
        }
    }

    @Test
    void countersAreFewAndEachSharesItsLocksSlot() {
        Set<String> counters = new HashSet<>();
        for (int i = 0; i < 1_000_000; i++) {
            String name = i % 2 == 0 ? "order-" + i : "user{" + i + "}:cart";
            String counter = TokenCounters.keyFor(name);
            counters.add(counter);
            if (i % 1000 == 0) {
                assertEquals(JedisClusterCRC16.getSlot(name), JedisClusterCRC16.getSlot(counter), name + " and " + counter);
            }
        }
        assertEquals(16384, counters.size(), "one counter per slot, a million names");
        assertTrue(TokenCounters.PREFIX.equals(Stage.TOKEN_COUNTERS), "the contract knows the counters by their prefix");
    }

    @Test
    void theCountersStoreTheirValueAsIncrLeftIt() {
        FencedLock lock = client().get("counted");
        long token = lock.lockAndGetToken();
        lock.unlock();
        try (Jedis admin = node.admin()) {
            assertEquals(Long.toString(token), admin.get(TokenCounters.keyFor("counted")));
            assertFalse(admin.exists("counted"), "the lock itself is gone");
        }
    }
}
