package dev.lockstep.testkit.scenario;

import dev.lockstep.testkit.fixture.RedisNode;
import dev.lockstep.testkit.history.History;
import dev.lockstep.testkit.history.History.Kind;
import dev.lockstep.testkit.watch.RedisTraffic;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.params.SetParams;

/**
 * Puts what one node does to lock keys into the history, from keyspace notifications: who the key is
 * stored for ({@link Kind#HELD}), renewals, expiry, deletion, and the node going down. This is how a
 * timeline draws who holds the key on each node, shows the watchdog at work, and shows whose unlock
 * deleted a key. The watch reconnects after a restart or a killed connection, and reads the keys
 * again then, since a node back from its AOF still has them.
 */
final class RedisWatch implements AutoCloseable {

    /** How often a watch whose node went away asks whether it is back. */
    private static final long RECONNECT_MILLIS = 20;

    private final RedisNode node;
    private final String actor;
    private final History history;
    private final String warmUpLock;
    private final KeyColumns keyColumns;
    private final Thread thread;
    private final CountDownLatch subscribed = new CountDownLatch(1);
    private final Map<String, CountDownLatch> catchingUp = new ConcurrentHashMap<>();
    private volatile boolean closed;
    private volatile KeyEventListener listener;

    /**
     * Watches {@code node}, recording into {@code history} as node {@code name}, or in their own columns
     * for the keys {@code keyColumns} draws apart; {@code warmUpLock} is the fixture's own lock, recorded
     * apart from the scenario's.
     */
    RedisWatch(RedisNode node, String name, History history, String warmUpLock, KeyColumns keyColumns) {
        this.node = node;
        this.warmUpLock = warmUpLock;
        this.keyColumns = keyColumns;
        this.actor = History.REDIS + "/" + name;
        this.history = history;
        if (!keyColumns.apart()) {
            history.node(name);
        }
        keyColumns.drawn().values().forEach(history::key);
        thread = new Thread(this::watch, "lockstep-redis-watch-" + node.address().getPort());
        thread.setDaemon(true);
        thread.start();
        try {
            if (!subscribed.await(5, TimeUnit.SECONDS)) {
                close();
                throw new IllegalStateException("could not subscribe to keyspace events of " + node.label());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            close();
            throw new IllegalStateException("interrupted while subscribing to " + node.label(), e);
        }
    }

    /**
     * Subscribes, and again whenever the connection drops, until closed. A node that refuses
     * connections, or comes back with another run id (restarted), is recorded down from the moment
     * the connection dropped; on every reconnect the keys are read again.
     */
    private void watch() {
        Map<String, String> owners = new HashMap<>();
        String runId = null;
        long droppedAt = -1;
        boolean reported = false;
        while (!closed) {
            try (Jedis reader = node.admin(); Jedis subscriber = node.admin()) {
                String now = reader.info("server").lines().filter(l -> l.startsWith("run_id:")).findFirst().orElse("");
                if (runId != null && !now.equals(runId)) {
                    if (!reported) {
                        history.recordAt(droppedAt, actor, Kind.DOWN, "restarted");
                    }
                    owners.clear();
                }
                runId = now;
                reader.clientSetname(RedisTraffic.UNCOUNTED_CLIENT);
                subscriber.clientSetname(RedisTraffic.UNCOUNTED_CLIENT);
                reader.configSet("notify-keyspace-events", "Eg$hxe");
                KeyEventListener current = new KeyEventListener(reader, owners, history, actor, warmUpLock,
                        keyColumns, subscribed, catchingUp);
                listener = current;
                if (droppedAt >= 0) {
                    current.rescan();
                }
                droppedAt = -1;
                reported = false;
                subscriber.subscribe(current, KeyEventListener.CHANNELS);
            } catch (JedisException e) {
                if (closed) {
                    return;
                }
                if (droppedAt < 0) {
                    droppedAt = history.now();
                }
                if (!reported && isDown()) {
                    reported = true;
                    owners.clear();
                    history.recordAt(droppedAt, actor, Kind.DOWN, "stopped answering");
                }
                try {
                    Thread.sleep(RECONNECT_MILLIS);
                } catch (InterruptedException interrupted) {
                    return;
                }
            }
        }
    }

    /** Whether the node refuses a connection now: a killed connection to a live node is not a node down. */
    private boolean isDown() {
        try (Jedis probe = node.admin()) {
            probe.ping();
            return false;
        } catch (JedisException e) {
            return true;
        }
    }

    /**
     * Returns once every key event the node sent before this call is in the history, or after a
     * second: a scenario can end within a millisecond of its last unlock, before the notifications
     * that tell of it arrive. Writes a marker key and waits for its own notification, which Redis
     * sends after all the earlier ones. A node that is down has nothing more to tell.
     */
    void catchUp() {
        String marker = KeyEventListener.CATCH_UP_MARKER + System.nanoTime();
        CountDownLatch seen = new CountDownLatch(1);
        catchingUp.put(marker, seen);
        try (Jedis admin = node.admin()) {
            admin.set(marker, "1", SetParams.setParams().px(1_000));
            seen.await(1, TimeUnit.SECONDS);
        } catch (JedisException e) {
            // Down: nothing more to wait for.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            catchingUp.remove(marker);
        }
    }

    @Override
    public void close() {
        closed = true;
        KeyEventListener current = listener;
        if (current != null && current.isSubscribed()) {
            try {
                current.unsubscribe();
            } catch (JedisException e) {
                // Connection already gone.
            }
        }
        thread.interrupt();
        try {
            thread.join(TimeUnit.SECONDS.toMillis(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
