package dev.lockstep.v3;

import dev.lockstep.internal.AbstractDistLock;
import dev.lockstep.internal.AbstractLocks;
import dev.lockstep.DistLock;
import dev.lockstep.Guarantee;
import dev.lockstep.internal.Lease;
import dev.lockstep.LockOptions;
import dev.lockstep.internal.LuaScript;
import java.util.EnumSet;
import java.util.List;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.util.JedisClusterCRC16;

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
    private static final LuaScript FORCE_UNLOCK = LuaScript.load(ReentrantHashLocks.class, "force-unlock.lua");

    /** The message the unlock script publishes on a full release: Redisson's, so its waiters and ours wake each other. */
    public static final String RELEASED = "0";

    private static final String CHANNEL_PREFIX = "redisson_lock__channel:";

    /** A client of the stage-3 lock over {@code redis}. */
    public ReentrantHashLocks(UnifiedJedis redis, LockOptions options) {
        super(redis, options, EnumSet.of(
                Guarantee.LIVENESS_AFTER_CRASH, Guarantee.OWNER_ONLY_RELEASE, Guarantee.REENTRANT));
    }

    /**
     * The release channel of lock {@code name}, exactly Redisson's: {@code redisson_lock__channel:{name}},
     * or {@code redisson_lock__channel:name} when the name brings its own hash tag. Either way the
     * channel hashes to the key's Cluster slot, so one script can delete the key and publish.
     *
     * @throws IllegalArgumentException when the name's braces are not a whole hash tag (an opening
     *     brace with no closing one after it, an empty tag, a stray closing brace): its key and
     *     channel would then land in different Cluster slots
     */
    public static String releaseChannel(String name) {
        return CHANNEL_PREFIX + hashTagged(name);
    }

    /**
     * {@code name} as the hash tag of the names Redisson builds around a lock: {@code {name}}, or
     * the name itself when it brings its own tag. Anything prefixed or suffixed to it hashes to the
     * lock key's Cluster slot.
     *
     * @throws IllegalArgumentException when the name's braces are not a whole hash tag
     */
    public static String hashTagged(String name) {
        String tagged = name.contains("{") ? name : "{" + name + "}";
        if (JedisClusterCRC16.getSlot(CHANNEL_PREFIX + tagged) != JedisClusterCRC16.getSlot(name)) {
            throw new IllegalArgumentException("name's braces are not a whole Redis hash tag, so its key and release "
                    + "channel would hash to different Cluster slots: write the tag whole, as in 'orders:{eu}', "
                    + "or use no braces; was " + name);
        }
        return tagged;
    }

    /** Deletes lock {@code key} whoever holds it and announces the release on {@code channel}; true when there was one. */
    public static boolean forceUnlock(UnifiedJedis redis, String key, String channel) {
        return Long.valueOf(1).equals(FORCE_UNLOCK.run(redis, List.of(key, channel), List.of(RELEASED)));
    }

    @Override
    protected DistLock newLock(String name) {
        return new ReentrantHashLock(name);
    }

    private final class ReentrantHashLock extends AbstractDistLock {

        private final String channel;

        ReentrantHashLock(String name) {
            super(name, ReentrantHashLocks.this);
            this.channel = releaseChannel(name);
        }

        @Override
        protected boolean tryAcquireOnce(Lease lease) {
            return LOCK.run(redis(), List.of(key()), List.of(Long.toString(lease.millis()), threadOwner())) == null;
        }

        @Override
        protected void release() {
            if (UNLOCK.run(redis(), List.of(key(), channel), List.of(threadOwner(), RELEASED)) == null) {
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
            return ask("forceUnlock", () -> ReentrantHashLocks.forceUnlock(redis(), key(), channel));
        }

        /** Asks Redis: the owner field is there only while this thread holds the lock. */
        @Override
        public boolean isHeldByCurrentThread() {
            return ask("isHeldByCurrentThread", () -> redis().hexists(key(), threadOwner()));
        }
    }
}
