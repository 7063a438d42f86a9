package dev.lockstep.v5;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;

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

    ReleaseChannel(String name, int nodes) {
        this.name = name;
        this.subscribed = new CountDownLatch(nodes);
    }

    /** A node confirmed the subscription; after a reconnection, also a wake-up for a release that went unheard. */
    void confirmed(boolean afterReconnection) {
        subscribed.countDown();
        if (afterReconnection) {
            permits.release();
        }
    }
}
