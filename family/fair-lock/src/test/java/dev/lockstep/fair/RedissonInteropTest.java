package dev.lockstep.fair;

import static dev.lockstep.testkit.contract.RedissonInteropContract.assertWokenWithin;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.lockstep.DistLock;
import dev.lockstep.testkit.fixture.Await;
import dev.lockstep.testkit.interop.InteropGround;
import dev.lockstep.testkit.client.LockThread;
import dev.lockstep.testkit.fixture.RedisNode;
import dev.lockstep.testkit.watch.RedisTraffic;
import dev.lockstep.testkit.contract.InteropStories;
import dev.lockstep.v3.internal.RedissonLayout;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;
import redis.clients.jedis.UnifiedJedis;

/**
 * Redisson's {@code getFairLock(name)} and {@code get(name)} here are one lock, on a server and on
 * a 3-master Cluster: each keeps the other out, each one's unlock wakes the other's waiter (the
 * head of the shared queue, on its own channel) within 100 ms, and a Redisson waiter queued behind
 * ours is served after ours.
 */
class RedissonInteropTest extends InteropStories {

    private static final Duration SHORT = Duration.ofMillis(200);
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final Duration LEASE = Duration.ofSeconds(30);

    RedissonInteropTest() {
        super("fair-lock", FairLocks.class);
    }

    @Override
    protected void play(InteropGround ground, String where) throws Exception {
        RedissonClient redisson = ground.redisson();
        FairLocks locks = (FairLocks) ground.locks();
        UnifiedJedis redis = ground.redis();
        List<RedisNode> nodes = ground.nodes();
        for (String name : new String[] {"orders", "orders:{eu}"}) {
            Queue queue = new Queue(redis, nodes, name);
            eachExcludesTheOther(redisson.getFairLock(name), locks.get(name));
            ourUnlockWakesTheirWaiter(redisson.getFairLock(name), locks.get(name), queue, where);
            theirUnlockWakesOurWaiter(redisson.getFairLock(name), locks.get(name), queue, where);
            theirWaiterBehindOursComesSecond(redisson.getFairLock(name), locks, name, queue, where);
            assertFalse(redis.exists(name), name + " outlived every unlock on the " + where);
            assertFalse(redis.exists(FairKeys.queue(name)), "the queue of " + name + " outlived its waiters on the " + where);
            assertFalse(redis.exists(FairKeys.deadlines(name)), "the deadlines of " + name + " outlived its waiters");
        }
    }

    private static void eachExcludesTheOther(RLock theirs, DistLock ours) throws Exception {
        try (LockThread redisson = new LockThread("redisson"); LockThread lockstep = new LockThread("lockstep")) {
            lockstep.run(ours::lock);
            assertFalse(redisson.call(() -> theirs.tryLock(0, LEASE.toMillis(), TimeUnit.MILLISECONDS)),
                    "Redisson took a fair lock we hold");
            lockstep.run(ours::unlock);
            redisson.run(() -> theirs.lock(LEASE.toMillis(), TimeUnit.MILLISECONDS));
            assertFalse(lockstep.call(() -> ours.tryLock(SHORT, null)), "we took a fair lock Redisson holds");
            redisson.run(theirs::unlock);
        }
    }

    private static void ourUnlockWakesTheirWaiter(RLock theirs, DistLock ours, Queue queue, String where) throws Exception {
        try (LockThread redisson = new LockThread("redisson"); LockThread lockstep = new LockThread("lockstep")) {
            lockstep.run(ours::lock);
            Future<Long> in = redisson.submit(() ->
                    theirs.tryLock(WAIT.toMillis(), LEASE.toMillis(), TimeUnit.MILLISECONDS) ? System.nanoTime() : -1L);
            queue.awaitListening(1);
            long released = System.nanoTime();
            lockstep.run(ours::unlock);
            assertWokenWithin(LockThread.get(in, LockThread.DEADLINE), released, "Redisson's waiter on the " + where);
            redisson.run(theirs::unlock);
        }
    }

    private static void theirUnlockWakesOurWaiter(RLock theirs, DistLock ours, Queue queue, String where) throws Exception {
        try (LockThread redisson = new LockThread("redisson"); LockThread lockstep = new LockThread("lockstep")) {
            redisson.run(() -> theirs.lock(LEASE.toMillis(), TimeUnit.MILLISECONDS));
            Future<Long> in = lockstep.submit(() -> ours.tryLock(WAIT, null) ? System.nanoTime() : -1L);
            queue.awaitListening(1);
            long released = System.nanoTime();
            redisson.run(theirs::unlock);
            assertWokenWithin(LockThread.get(in, LockThread.DEADLINE), released, "our waiter on the " + where);
            lockstep.run(ours::unlock);
        }
    }

    /** We hold; our waiter queues, then Redisson's: our unlock lets ours in, and its unlock lets Redisson's in. */
    private static void theirWaiterBehindOursComesSecond(RLock theirs, FairLocks locks, String name, Queue queue,
                                                         String where) throws Exception {
        DistLock ours = locks.get(name);
        try (LockThread holder = new LockThread("lockstep-holder"); LockThread lockstep = new LockThread("lockstep");
             LockThread redisson = new LockThread("redisson")) {
            holder.run(ours::lock);
            Future<Long> oursIn = lockstep.submit(() -> ours.tryLock(WAIT, null) ? System.nanoTime() : -1L);
            queue.awaitListening(1);
            Future<Long> theirsIn = redisson.submit(() ->
                    theirs.tryLock(WAIT.toMillis(), LEASE.toMillis(), TimeUnit.MILLISECONDS) ? System.nanoTime() : -1L);
            queue.awaitListening(2);
            long released = System.nanoTime();
            holder.run(ours::unlock);
            assertWokenWithin(LockThread.get(oursIn, LockThread.DEADLINE), released, "our waiter, first in the queue");
            assertFalse(theirsIn.isDone(), "Redisson's waiter got in beside ours, queued before it, on the " + where);
            released = System.nanoTime();
            lockstep.run(ours::unlock);
            assertWokenWithin(LockThread.get(theirsIn, LockThread.DEADLINE), released,
                    "Redisson's waiter behind ours on the " + where);
            redisson.run(theirs::unlock);
        }
    }

    /** A lock's queue as both libraries keep it: who waits, and whether each listens on its own channel. */
    private record Queue(UnifiedJedis redis, List<RedisNode> nodes, String name) {

        /** Waits until {@code waiters} owners queue and each listens on {@code redisson_lock__channel:{name}:owner}. */
        void awaitListening(int waiters) {
            String prefix = RedissonLayout.releaseChannel(name) + ":";
            Await.until(waiters + " waiter(s) queue on " + name + " and listen", LockThread.DEADLINE, () -> {
                List<String> owners = redis.lrange(FairKeys.queue(name), 0, -1);
                return owners.size() == waiters
                        && owners.stream().allMatch(owner -> RedisTraffic.subscribers(nodes, prefix + owner) > 0);
            });
            assertEquals(waiters, redis.zcard(FairKeys.deadlines(name)), "each waiter has a deadline");
        }
    }
}
