package dev.lockstep.testkit;

import dev.lockstep.testkit.History.Kind;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPubSub;
import redis.clients.jedis.exceptions.JedisException;

/**
 * Puts what Redis itself does to lock keys (every key but testkit's replication markers) into the history: expiry and
 * deletion, from keyspace notifications. This is how a timeline shows that a lease ran out, or whose unlock deleted a key.
 */
final class RedisWatch implements AutoCloseable {

    private static final String EXPIRED = "__keyevent@0__:expired";
    private static final String DELETED = "__keyevent@0__:del";

    private final Jedis connection;
    private final Thread thread;
    private final Listener listener;

    RedisWatch(RedisNode node, String label, History history) {
        try (Jedis admin = node.admin()) {
            admin.configSet("notify-keyspace-events", "Egx");
        }
        connection = node.admin();
        listener = new Listener(history, node, label);
        thread = new Thread(() -> {
            try {
                connection.subscribe(listener, EXPIRED, DELETED);
            } catch (JedisException e) {
                // The node was killed or the watch closed: nothing more to report.
            }
        }, "lockstep-redis-watch-" + node.address().getPort());
        thread.setDaemon(true);
        thread.start();
        listener.awaitSubscribed();
    }

    @Override
    public void close() {
        if (listener.isSubscribed()) {
            try {
                listener.unsubscribe();
            } catch (JedisException e) {
                // Connection already gone.
            }
        }
        connection.close();
        try {
            thread.join(TimeUnit.SECONDS.toMillis(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static final class Listener extends JedisPubSub {

        private final History history;
        private final RedisNode node;
        private final String label;
        private final CountDownLatch subscribed = new CountDownLatch(2);

        Listener(History history, RedisNode node, String label) {
            this.history = history;
            this.node = node;
            this.label = label;
        }

        @Override
        public void onSubscribe(String channel, int count) {
            subscribed.countDown();
        }

        @Override
        public void onMessage(String channel, String key) {
            // The fixture's own marker, the read-write lock's per-hold timeout keys and the fair lock's
            // queue: the hash tells the story.
            if (key.startsWith(RedisNode.REPLICATION_MARKER) || key.contains(":rwlock_timeout:")
                    || key.startsWith("redisson_lock_queue:") || key.startsWith("redisson_lock_timeout:")) {
                return;
            }
            if (EXPIRED.equals(channel)) {
                history.record(History.REDIS, Kind.EXPIRED, label + key + " expired");
            } else {
                history.record(History.REDIS, Kind.DELETED, label + key + " deleted");
            }
        }

        void awaitSubscribed() {
            try {
                if (!subscribed.await(5, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("could not subscribe to keyspace events of " + node.label());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while subscribing to " + node.label(), e);
            }
        }
    }
}
