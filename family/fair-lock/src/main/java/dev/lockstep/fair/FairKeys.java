package dev.lockstep.fair;

import dev.lockstep.v3.internal.RedissonLayout;

/**
 * Redisson's names around a fair lock's hash: its queue and its waiters' deadlines. Each carries
 * the name as a hash tag (or the name's own tag), so both share the hash's Cluster slot.
 */
final class FairKeys {

    private FairKeys() {
    }

    /** The list of waiting owners, oldest first: {@code redisson_lock_queue:{name}}. */
    static String queue(String name) {
        return "redisson_lock_queue:" + RedissonLayout.hashTagged(name);
    }

    /** The sorted set of each waiter's deadline, in ms of the server's clock: {@code redisson_lock_timeout:{name}}. */
    static String deadlines(String name) {
        return "redisson_lock_timeout:" + RedissonLayout.hashTagged(name);
    }
}
