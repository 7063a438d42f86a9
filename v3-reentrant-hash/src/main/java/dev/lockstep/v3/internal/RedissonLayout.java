package dev.lockstep.v3.internal;

import dev.lockstep.internal.LuaScript;
import java.util.List;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.util.JedisClusterCRC16;

/**
 * The names and messages stage 3 shares with Redisson, which every later stage keeps: the release
 * channel, its message, the hash tag the family's keys are built around, the force unlock, and
 * setting a holder's lease anew.
 */
public final class RedissonLayout {

    /** The message the unlock script publishes on a full release: Redisson's, so its waiters and ours wake each other. */
    public static final String RELEASED = "0";

    private static final String CHANNEL_PREFIX = "redisson_lock__channel:";
    private static final LuaScript FORCE_UNLOCK = LuaScript.load(RedissonLayout.class, "force-unlock.lua");
    private static final LuaScript EXTEND = LuaScript.load(RedissonLayout.class, "extend.lua");

    private RedissonLayout() {
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

    /** The force-unlock script: deletes the lock whoever holds it, and announces the release. */
    public static LuaScript forceUnlockScript() {
        return FORCE_UNLOCK;
    }

    /** Deletes lock {@code key} whoever holds it and announces the release on {@code channel}; true when there was one. */
    public static boolean forceUnlock(UnifiedJedis redis, String key, String channel) {
        return Long.valueOf(1).equals(FORCE_UNLOCK.run(redis, List.of(key, channel), List.of(RELEASED)));
    }

    /** Sets lock {@code key}'s lease to {@code leaseMillis} if {@code owner} still holds it; false when its field is gone. */
    public static boolean extend(UnifiedJedis redis, String key, String owner, long leaseMillis) {
        return Long.valueOf(1).equals(EXTEND.run(redis, List.of(key), List.of(Long.toString(leaseMillis), owner)));
    }
}
