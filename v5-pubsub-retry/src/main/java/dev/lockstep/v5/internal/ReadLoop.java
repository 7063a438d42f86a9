package dev.lockstep.v5.internal;

import dev.lockstep.internal.Patience;
import java.time.Duration;
import redis.clients.jedis.Connection;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisException;

/**
 * The read thread of one node's subscription: one connection at a time, each read until it ends,
 * and a new one after a pause while anything is still wanted. What each step means to the
 * subscription's state is its {@link Steps}'.
 */
final class ReadLoop implements Runnable {

    /** What the loop tells the subscription, which answers with the guard held. */
    interface Steps {

        /** A new connection is due: its listener and channels, or null when nothing is wanted and the loop ends. */
        Start next(boolean reconnected);

        /** {@code own} is the connection, which a heartbeat may cut; the first SUBSCRIBE goes out next. */
        void connected(Connection own);

        /** The connection failed with {@code e}; {@code refused}: Redis said no, and no retry will change that. */
        void failed(JedisException e, boolean refused);

        /** The connection is gone, whatever ended it. */
        void closed();
    }

    /** A connection to open: its listener, and the channels to subscribe first. */
    record Start(SubscriptionListener listener, String[] channels) {
    }

    private final Steps steps;
    private final UnifiedJedis redis;
    private final Duration retry;
    private final OutageLog outages;

    ReadLoop(Steps steps, UnifiedJedis redis, Duration retry, OutageLog outages) {
        this.steps = steps;
        this.redis = redis;
        this.retry = retry;
        this.outages = outages;
    }

    @Override
    public void run() {
        boolean reconnected = false;
        for (Start start = steps.next(false); start != null; start = steps.next(reconnected)) {
            try {
                subscribe(start);
                reconnected = false;
            } catch (JedisException e) {
                boolean refused = Patience.refused(e);
                steps.failed(e, refused);
                outages.failed(e, refused);
                pauseBeforeRetry();
                reconnected = true;
            } finally {
                steps.closed();
            }
        }
    }

    /** Runs the listener on a connection of our own where we can get one, so a heartbeat can cut it, and closes it after. */
    private void subscribe(Start start) {
        Connection own = PubSubConnections.borrow(redis, start.channels()[0]);
        if (own == null) {
            redis.subscribe(start.listener(), start.channels());
            return;
        }
        try {
            steps.connected(own);
            start.listener().proceed(own, start.channels());
        } finally {
            // Closed, never pooled: Jedis's listener keeps the connection after its loop ends, and a loop can
            // end with traffic still on its way (broken off by a reply it cannot place, a late SUBSCRIBE or probe).
            // Pooled, it would answer another caller's command with a release message: the model explorer saw
            // a renewal read [message, channel, 0] as its reply.
            own.setBroken();
            own.close();
        }
    }

    private void pauseBeforeRetry() {
        try {
            Thread.sleep(retry.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
