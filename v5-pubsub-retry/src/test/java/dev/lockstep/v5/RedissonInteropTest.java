package dev.lockstep.v5;

import static dev.lockstep.v5.Probe.channel;
import static dev.lockstep.v5.Probe.key;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockstep.DistLock;
import dev.lockstep.LockOptions;
import dev.lockstep.testkit.InteropNode;
import dev.lockstep.testkit.LockThread;
import dev.lockstep.testkit.RedisNode;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.redisson.api.RLock;
import redis.clients.jedis.RedisClient;

/**
 * A Redisson 4.7 {@link RLock} named {@code "{" + name + "}"} and the v5 lock {@code name} are one
 * lock, and their waiters wake each other. Both write the same hash ({@code clientId:threadId} to
 * hold count), and both announce a full release by publishing {@code 0} on
 * {@code redisson_lock__channel:{name}}, the channel both sleep on. So a team can move from
 * Redisson to v5 one service at a time: mutual exclusion holds throughout, and a waiter of
 * either kind is woken by the other's unlock within a round trip or two, not after the
 * holder's lease.
 *
 * <p>Holders take a 30 s lease: a waiter that missed the other's release message would sleep
 * for seconds (its wait, 10 s here), so "under 1 s" proves the message woke it. Both clients own
 * locks by thread id, so each holder is one dedicated thread doing its lock and its unlock.
 */
class RedissonInteropTest {

    private static final Duration LONG_LEASE = Duration.ofSeconds(30);
    private static final Duration WAIT = Duration.ofSeconds(10);
    /** How long a blocked client tries before giving up: several round trips, far below any lease. */
    private static final Duration SHORT_WAIT = Duration.ofMillis(200);
    /** A wake-up by message is a publish and a round trip or two; this allows for a busy 2-core box. */
    private static final Duration WOKEN_WITHIN = Duration.ofSeconds(1);
    private static final Duration DEADLINE = Duration.ofSeconds(10);

    private static InteropNode shared;
    private static RedisNode node;
    private static RedisClient redis;
    private static PubSubLocks lockstep;

    @BeforeAll
    static void start() throws Exception {
        shared = new InteropNode();
        node = shared.node();
        redis = shared.redis();
        lockstep = new PubSubLocks(redis, LockOptions.defaults());
        // Both clients' scripts are loaded once, so every later attempt is one script run.
        Probe.warmScripts(node);
        try (LockThread warm = new LockThread("warm-up")) {
            RLock theirs = shared.redissonLock("warm-up");
            warm.run(() -> theirs.lock(LONG_LEASE.toMillis(), TimeUnit.MILLISECONDS));
            warm.run(theirs::unlock);
        }
    }

    @AfterAll
    static void stop() {
        if (lockstep != null) {
            lockstep.close();
        }
        if (shared != null) {
            shared.close();
        }
    }

    @Test
    void eachBlocksTheOther() throws Exception {
        String name = "either-way";
        RLock theirs = shared.redissonLock(name);
        DistLock ours = lockstep.get(name);
        try (LockThread redissonThread = new LockThread("redisson"); LockThread v5Thread = new LockThread("v5")) {
            v5Thread.run(() -> ours.lock(LONG_LEASE));
            assertFalse(redissonThread.call(() -> theirs.tryLock(SHORT_WAIT.toMillis(), LONG_LEASE.toMillis(),
                    TimeUnit.MILLISECONDS)), "Redisson took a lock v5 holds");
            v5Thread.run(ours::unlock);

            redissonThread.run(() -> theirs.lock(LONG_LEASE.toMillis(), TimeUnit.MILLISECONDS));
            assertFalse(v5Thread.call(() -> ours.tryLock(SHORT_WAIT, LONG_LEASE)), "v5 took a lock Redisson holds");
            redissonThread.run(theirs::unlock);
        }
        assertFalse(redis.exists(key(name)), "the lock outlived both unlocks");
        Probe.eventually("v5 still listens after giving up", DEADLINE, lockstep::subscribedChannels, Set::isEmpty);
    }

    @Test
    void aRedissonWaiterIsWokenByV5sUnlock() throws Exception {
        String name = "v5-releases";
        RLock theirs = shared.redissonLock(name);
        DistLock ours = lockstep.get(name);
        try (LockThread redissonThread = new LockThread("redisson"); LockThread v5Thread = new LockThread("v5")) {
            v5Thread.run(() -> ours.lock(LONG_LEASE));
            long before = Probe.scriptRuns(node);

            Future<Long> acquiredAt = redissonThread.submit(() -> theirs.tryLock(WAIT.toMillis(), LONG_LEASE.toMillis(),
                    TimeUnit.MILLISECONDS) ? System.nanoTime() : -1L);
            // Redisson, like v5, tries, subscribes, and tries again before it sleeps.
            awaitAsleep("the Redisson waiter went to sleep on the channel", name, before);

            long releasedAt = System.nanoTime();
            v5Thread.run(ours::unlock);
            long acquired = LockThread.get(acquiredAt, DEADLINE);
            assertTrue(acquired > 0, "the Redisson waiter never got the lock v5 released");
            System.out.printf("RedissonInteropTest: Redisson waiter woken %d µs after v5's unlock%n",
                    TimeUnit.NANOSECONDS.toMicros(acquired - releasedAt));
            assertTrue(acquired - releasedAt < WOKEN_WITHIN.toNanos(), "the Redisson waiter took "
                    + TimeUnit.NANOSECONDS.toMillis(acquired - releasedAt) + " ms after v5's unlock: "
                    + "v5's release message did not wake it");
            redissonThread.run(theirs::unlock);
        }
        assertFalse(redis.exists(key(name)), "the lock outlived both unlocks");
    }

    @Test
    void aV5WaiterIsWokenByRedissonsUnlock() throws Exception {
        String name = "redisson-releases";
        RLock theirs = shared.redissonLock(name);
        DistLock ours = lockstep.get(name);
        try (LockThread redissonThread = new LockThread("redisson"); LockThread v5Thread = new LockThread("v5")) {
            redissonThread.run(() -> theirs.lock(LONG_LEASE.toMillis(), TimeUnit.MILLISECONDS));
            long before = Probe.scriptRuns(node);

            Future<Long> acquiredAt = v5Thread.submit(() -> ours.tryLock(WAIT, LONG_LEASE) ? System.nanoTime() : -1L);
            awaitAsleep("the v5 waiter went to sleep on the channel", name, before);
            assertEquals(Set.of(channel(name)), lockstep.subscribedChannels());

            long releasedAt = System.nanoTime();
            redissonThread.run(theirs::unlock);
            long acquired = LockThread.get(acquiredAt, DEADLINE);
            assertTrue(acquired > 0, "the v5 waiter never got the lock Redisson released");
            System.out.printf("RedissonInteropTest: v5 waiter woken %d µs after Redisson's unlock%n",
                    TimeUnit.NANOSECONDS.toMicros(acquired - releasedAt));
            assertTrue(acquired - releasedAt < WOKEN_WITHIN.toNanos(), "the v5 waiter took "
                    + TimeUnit.NANOSECONDS.toMillis(acquired - releasedAt) + " ms after Redisson's unlock: "
                    + "Redisson's release message did not wake it");
            v5Thread.run(ours::unlock);
        }
        assertFalse(redis.exists(key(name)), "the lock outlived both unlocks");
    }

    /** Subscribed, and tried twice (before and after subscribing): the waiter sleeps on the channel or is about to. */
    private static void awaitAsleep(String what, String name, long scriptRunsBefore) {
        Probe.eventually(what, DEADLINE, () -> Probe.subscribers(node, channel(name)) >= 1
                && Probe.scriptRuns(node) - scriptRunsBefore >= 2, asleep -> asleep);
    }
}
