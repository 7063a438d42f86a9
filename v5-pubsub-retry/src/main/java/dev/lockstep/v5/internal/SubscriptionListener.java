package dev.lockstep.v5.internal;

import redis.clients.jedis.JedisPubSub;

/** Turns Redis's pub/sub replies on one connection into {@link Events}. Runs on the connection's read thread. */
final class SubscriptionListener extends JedisPubSub {

    /** What one connection's replies mean to its subscription. */
    interface Events {

        /** Redis confirmed {@code channel}; {@code afterReconnection}: a release may have gone unheard meanwhile. */
        void confirmed(String channel, boolean afterReconnection);

        /** Redis confirmed an unsubscribe, or answered the heartbeat's probe. */
        void unsubscribed();

        /** A release was announced on {@code channel}. */
        void released(String channel);
    }

    private final Events events;
    private final boolean afterReconnection;

    /** A listener telling {@code events}, on a connection that replaces a failed one if {@code afterReconnection}. */
    SubscriptionListener(Events events, boolean afterReconnection) {
        this.events = events;
        this.afterReconnection = afterReconnection;
    }

    @Override
    public void onSubscribe(String channel, int subscribedChannels) {
        events.confirmed(channel, afterReconnection);
    }

    @Override
    public void onUnsubscribe(String channel, int subscribedChannels) {
        events.unsubscribed();
    }

    @Override
    public void onMessage(String channel, String message) {
        events.released(channel);
    }
}
