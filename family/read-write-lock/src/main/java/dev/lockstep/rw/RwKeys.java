package dev.lockstep.rw;

import dev.lockstep.v3.internal.RedissonLayout;

/**
 * Redisson's names around a read-write lock's hash: its channel, and the timeout keys of its read
 * holds. Each carries the name as a hash tag (or the name's own tag), so all share the hash's slot.
 */
final class RwKeys {

    /** The message a read unlock announces (Redisson's: one waiter may try). */
    static final String READ_RELEASED = "0";
    /** The message a write unlock announces (Redisson's: every waiter may try, readers may all enter). */
    static final String WRITE_RELEASED = "1";

    private RwKeys() {
    }

    /** The channel releases are announced on: {@code redisson_rwlock:{name}}. */
    static String channel(String name) {
        return "redisson_rwlock:" + RedissonLayout.hashTagged(name);
    }

    /** What every timeout key starts with: the name as a hash tag, {@code {name}}. */
    static String timeoutBase(String name) {
        return RedissonLayout.hashTagged(name);
    }

    /**
     * The prefix of {@code owner}'s read-hold timeout keys, {@code {name}:owner:rwlock_timeout}
     * (add {@code :1}, {@code :2}...), from the lock's {@link #timeoutBase}.
     */
    static String timeoutPrefix(String timeoutBase, String owner) {
        return timeoutBase + ":" + owner + ":rwlock_timeout";
    }
}
