package dev.lockstep.v3;

import dev.lockstep.internal.AbstractDistLock;
import dev.lockstep.internal.AbstractLocks;
import dev.lockstep.DistLock;
import dev.lockstep.Guarantee;
import dev.lockstep.internal.Lease;
import dev.lockstep.LockOptions;
import dev.lockstep.internal.LuaScript;
import dev.lockstep.v3.internal.RedissonLayout;
import java.util.EnumSet;
import java.util.List;
import redis.clients.jedis.UnifiedJedis;

/**
 * Stage 3: the lock is a hash from owner ({@code clientId:threadId}) to hold count, Redisson's
 * layout. The owner may take it again (count + 1) and must unlock as often; only the last unlock
 * deletes it, and announces the release on the lock's channel as Redisson does. Key, field,
 * channel and message are Redisson's, so {@code get(name)} here and Redisson's
 * {@code getLock(name)} are one lock. Ownership lives in Redis, so a thread asks Redis whether it
 * holds the lock.
 *
 * <p>The lease is still fixed: work that outlasts it loses the lock, silently.
 */
public final class ReentrantHashLocks extends AbstractLocks {

    private static final LuaScript LOCK = LuaScript.load(ReentrantHashLocks.class, "lock.lua");
    private static final LuaScript UNLOCK = LuaScript.load(ReentrantHashLocks.class, "unlock-and-publish.lua");

    /** A client of the stage-3 lock over {@code redis}. */
    public ReentrantHashLocks(UnifiedJedis redis, LockOptions options) {
        super(redis, options, EnumSet.of(
                Guarantee.LIVENESS_AFTER_CRASH, Guarantee.OWNER_ONLY_RELEASE, Guarantee.REENTRANT));
    }

    @Override
    protected DistLock newLock(String name) {
        return new ReentrantHashLock(name);
    }

    private final class ReentrantHashLock extends AbstractDistLock {

        private final String channel;

        ReentrantHashLock(String name) {
            super(name, ReentrantHashLocks.this);
            this.channel = RedissonLayout.releaseChannel(name);
        }

        @Override
        protected boolean tryAcquireOnce(Lease lease) {
            return LOCK.run(redis(), List.of(key()), List.of(Long.toString(lease.millis()), threadOwner())) == null;
        }

        @Override
        protected void release() {
            if (UNLOCK.run(redis(), List.of(key(), channel), List.of(threadOwner(), RedissonLayout.RELEASED)) == null) {
                throw new IllegalMonitorStateException("lock '" + name()
                        + "' is not held by this thread (never taken, already released, or its lease ran out)");
            }
        }

        /** The owner's field tells this holder's hash from its successor's, so only its own lease is set. */
        @Override
        protected void extendHold(Lease lease) {
            if (!RedissonLayout.extend(redis(), key(), threadOwner(), lease.millis())) {
                throw new IllegalMonitorStateException("lock '" + name()
                        + "' is not held by this thread (never taken, already released, or its lease ran out)");
            }
        }

        /** Asks Redis: the count in this thread's owner field. */
        @Override
        public int holdCount() {
            return ask("holdCount", () -> {
                String count = redis().hget(key(), threadOwner());
                return count == null ? 0 : Integer.parseInt(count);
            });
        }

        /** Deletes the hash and announces the release, so waiters listening on the channel wake. */
        @Override
        public boolean forceUnlock() {
            return ask("forceUnlock", () -> RedissonLayout.forceUnlock(redis(), key(), channel));
        }

        /** Local: a hold's validity never waits for Redis; the holds this client's calls took and not yet ended. */
        @Override
        protected boolean believesHeld() {
            return countsHolds();
        }

        /** Asks Redis: the owner field is there only while this thread holds the lock. */
        @Override
        public boolean isHeldByCurrentThread() {
            return ask("isHeldByCurrentThread", () -> redis().hexists(key(), threadOwner()));
        }
    }
}
