package dev.lockstep.v7.internal;

import redis.clients.jedis.util.JedisClusterCRC16;

/**
 * Where tokens come from: one counter per Redis Cluster slot, shared by every lock name that
 * hashes to that slot. A counter only grows, so each name's tokens grow too (with gaps where
 * other names took theirs); there are at most 16,384 counters however many names are locked, so
 * the counters need no expiry, and a counter that never expires never starts again below a
 * token a resource has already seen. The counter of slot {@code s} is
 * {@code lockstep_fence:{t}}, with {@code t} the smallest number whose decimal form hashes to
 * {@code s}: every client finds the same key, in the same slot as the lock (and so does the lab's
 * {@code inspect}, which reads it).
 */
public final class TokenCounters {

    /** The prefix of every counter key. */
    public static final String PREFIX = "lockstep_fence:";

    private static final int SLOTS = 16384;

    private TokenCounters() {
    }

    /** The counter key for lock {@code name}: in the slot of the name (of its hash tag, if it has one). */
    public static String keyFor(String name) {
        return PREFIX + "{" + Tags.OF_SLOT[JedisClusterCRC16.getSlot(name)] + "}";
    }

    /** The table, built on first use: about 160,000 CRC16 sums of short strings, a few milliseconds. */
    private static final class Tags {

        static final String[] OF_SLOT = build();

        private static String[] build() {
            String[] tags = new String[SLOTS];
            int found = 0;
            for (int n = 0; found < SLOTS; n++) {
                String tag = Integer.toString(n);
                int slot = JedisClusterCRC16.getSlot(tag);
                if (tags[slot] == null) {
                    tags[slot] = tag;
                    found++;
                }
            }
            return tags;
        }
    }
}
