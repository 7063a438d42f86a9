package dev.lockstep.v5.internal;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisException;

/**
 * One lock's release channel, as this client's waiters share it: how many wait on it, whose turn
 * it is to ask Redis, and the permits that release messages leave. Guarded by the {@link Subscriber}.
 */
final class ReleaseChannel {

    final String name;
    /** A release message, or a resubscription that may have missed one, adds a permit; a permit is never lost. */
    final Semaphore permits = new Semaphore(0);
    /** One waiter of this client at a time asks Redis; the others queue, in order. */
    final Semaphore turn = new Semaphore(1, true);
    /** Counts down once per node that confirmed the subscription. */
    final CountDownLatch subscribed;
    int users;
    /** Redis refused to subscribe (an ACL without the channel, or without SUBSCRIBE): waiting here cannot work. */
    volatile JedisException refusal;

    ReleaseChannel(String name, int nodes) {
        this.name = name;
        this.subscribed = new CountDownLatch(nodes);
    }

    /** Redis refused the subscription: every waiter wakes, and {@link #checkNotRefused} ends its wait. */
    void refused(JedisException cause) {
        refusal = cause;
        while (subscribed.getCount() > 0) {
            subscribed.countDown();
        }
        permits.release(users);
    }

    /** Throws when Redis refused to subscribe to this channel: a permission error does not heal by retrying. */
    void checkNotRefused() {
        JedisException cause = refusal;
        if (cause != null) {
            throw new JedisDataException("subscribing to " + name + " was refused: " + cause.getMessage(), cause);
        }
    }

    /** A node confirmed the subscription; after a reconnection, also a wake-up for a release that went unheard. */
    void confirmed(boolean afterReconnection) {
        subscribed.countDown();
        if (afterReconnection) {
            permits.release();
        }
    }
}
