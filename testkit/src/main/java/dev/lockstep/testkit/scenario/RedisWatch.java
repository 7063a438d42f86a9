package dev.lockstep.testkit.scenario;

import dev.lockstep.testkit.fixture.RedisNode;
import dev.lockstep.testkit.history.History;
import dev.lockstep.testkit.history.History.Kind;
import dev.lockstep.testkit.watch.RedisTraffic;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPubSub;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.exceptions.JedisDataException;
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

    private static final String EVENTS = "__keyevent@0__:";
    private static final List<String> WRITES = List.of("set", "hset", "hincrby");
    private static final String[] CHANNELS = {EVENTS + "set", EVENTS + "hset", EVENTS + "hincrby",
        EVENTS + "expire", EVENTS + "expired", EVENTS + "del"};
    /** Keys that mark how far the watch has read, each with a short TTL. */
    private static final String CATCH_UP_MARKER = "lockstep-watch-caught-up-";
    /** What PTTL answers for a key that does not exist. */
    private static final long GONE = -2;
    /** How often a watch whose node went away asks whether it is back. */
    private static final long RECONNECT_MILLIS = 20;

    private final RedisNode node;
    private final String actor;
    private final History history;
    private final Thread thread;
    private final CountDownLatch subscribed = new CountDownLatch(1);
    private final Map<String, CountDownLatch> catchingUp = new ConcurrentHashMap<>();
    private volatile boolean closed;
    private volatile Listener listener;

    RedisWatch(RedisNode node, String name, History history) {
        this.node = node;
        this.actor = History.REDIS + "/" + name;
        this.history = history;
        history.node(name);
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
                reader.configSet("notify-keyspace-events", "Eg$hx");
                Listener current = new Listener(reader, owners);
                listener = current;
                if (droppedAt >= 0) {
                    current.rescan();
                }
                droppedAt = -1;
                reported = false;
                subscriber.subscribe(current, CHANNELS);
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
        String marker = CATCH_UP_MARKER + System.nanoTime();
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
        Listener current = listener;
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

    /**
     * Whether {@code key} is the fixture's (a replication marker, the warm-up lock) or a lock's helper
     * key rather than the lock's own: the hash tells the story.
     */
    private static boolean isFixture(String key) {
        return key.startsWith(RedisNode.REPLICATION_MARKER) || key.equals(ScenarioContext.WARM_UP_LOCK)
                || key.contains(":rwlock_timeout:")
                || key.startsWith("redisson_lock_queue:") || key.startsWith("redisson_lock_timeout:");
    }

    private final class Listener extends JedisPubSub {

        private final Jedis reader;
        /** The owner values last seen in each lock key: a write that changes them is a new hold. */
        private final Map<String, String> owners;
        /** The key a script wrote last: its next {@code expire} is that write's TTL, not a renewal. */
        private String justWritten;

        Listener(Jedis reader, Map<String, String> owners) {
            this.reader = reader;
            this.owners = owners;
        }

        @Override
        public void onSubscribe(String channel, int count) {
            if (count == CHANNELS.length) {
                subscribed.countDown();
            }
        }

        @Override
        public void onMessage(String channel, String key) {
            long at = history.now();
            String event = channel.substring(EVENTS.length());
            CountDownLatch caughtUp = catchingUp.get(key);
            if (caughtUp != null) {
                caughtUp.countDown();
                return;
            }
            if (key.startsWith(CATCH_UP_MARKER)) {
                return;
            }
            if (isFixture(key)) {
                history.recordAt(at, actor, Kind.FIXTURE, key + " " + event);
                return;
            }
            if (WRITES.contains(event)) {
                justWritten = key;
                held(at, key);
            } else if (event.equals("expire")) {
                if (key.equals(justWritten)) {
                    justWritten = null;
                } else if (owners.containsKey(key)) {
                    history.recordAt(at, actor, Kind.RENEWED, key + " renewed");
                }
            } else {
                justWritten = null;
                owners.remove(key);
                history.recordAt(at, actor, event.equals("expired") ? Kind.EXPIRED : Kind.DELETED,
                        key + (event.equals("expired") ? " expired" : " deleted"));
            }
        }

        /** After a reconnect: what the node stores now, recorded as holds where it differs from what was seen. */
        void rescan() {
            long at = history.now();
            Set<String> keys = reader.keys("*");
            owners.keySet().retainAll(keys);
            for (String key : keys) {
                if (!isFixture(key)) {
                    held(at, key);
                }
            }
        }

        /**
         * Reads {@code key}'s owners in one round trip and records a hold if they changed (a new key, or a
         * reader joining the hash). A key without a TTL is no hold: every lock key has one, a resource's
         * stock does not. A key gone already, or on a node that died before it answered, was held by
         * owners unknown, whom the timeline names from the lock call under way.
         */
        private void held(long at, String key) {
            Pipeline reads = reader.pipelined();
            Response<Long> ttl = reads.pttl(key);
            Response<String> value = reads.get(key);
            Response<Set<String>> fields = reads.hkeys(key);
            try {
                reads.sync();
            } catch (JedisException e) {
                if (!owners.containsKey(key)) {
                    // The node died before the read: the key was there, for owners the timeline names from the lock call.
                    history.recordAt(at, actor, Kind.HELD, "");
                }
                throw e;
            }
            if (ttl.get() == GONE) {
                if (owners.putIfAbsent(key, "") == null) {
                    history.recordAt(at, actor, Kind.HELD, "");
                }
                return;
            }
            if (ttl.get() < 0) {
                return;
            }
            String owner = orNull(value);
            if (owner == null) {
                Set<String> hash = orNull(fields);
                owner = hash == null ? null : String.join(",", hash.stream().filter(f -> !f.equals("mode")).sorted()
                        .toList());
            }
            String known = owners.get(key);
            if (owner == null || owner.isEmpty() || owner.equals(known)) {
                return;
            }
            // A key changes hands only through a deletion or an expiry, whose notification is still on its
            // way: owners all new on a known key mean this read ran ahead of it, and the next write reads again.
            if (known != null && Collections.disjoint(List.of(known.split(",")), List.of(owner.split(",")))) {
                return;
            }
            owners.put(key, owner);
            history.recordAt(at, actor, Kind.HELD, owner);
        }

        /** A pipelined reply, or null where the key had another type. */
        private static <T> T orNull(Response<T> response) {
            try {
                return response.get();
            } catch (JedisDataException wrongType) {
                return null;
            }
        }
    }
}
