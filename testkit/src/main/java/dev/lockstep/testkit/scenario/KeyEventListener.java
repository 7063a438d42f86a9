package dev.lockstep.testkit.scenario;

import dev.lockstep.testkit.fixture.RedisNode;
import dev.lockstep.testkit.history.History;
import dev.lockstep.testkit.history.History.Kind;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPubSub;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisException;

/**
 * Turns one node's keyspace notifications into history events, over one subscribed connection: a
 * write that changes a key's owners is a {@link Kind#HELD}, an {@code expire} after no write of its
 * own a renewal, and expiries, evictions and deletions end the hold. The fixture's own keys are recorded apart.
 */
final class KeyEventListener extends JedisPubSub {

    private static final String EVENTS = "__keyevent@0__:";
    /** The channels a watch subscribes to. */
    static final String[] CHANNELS = {EVENTS + "set", EVENTS + "hset", EVENTS + "hincrby",
        EVENTS + "expire", EVENTS + "expired", EVENTS + "evicted", EVENTS + "del"};
    /** Keys that mark how far the watch has read, each with a short TTL. */
    static final String CATCH_UP_MARKER = "lockstep-watch-caught-up-";
    private static final List<String> WRITES = List.of("set", "hset", "hincrby");
    /** What PTTL answers for a key that does not exist. */
    private static final long GONE = -2;

    private final Jedis reader;
    private final History history;
    private final String actor;
    private final String warmUpLock;
    private final KeyColumns keyColumns;
    private final CountDownLatch subscribed;
    private final Map<String, CountDownLatch> catchingUp;
    /** The owner values last seen in each lock key: a write that changes them is a new hold. */
    private final Map<String, String> owners;
    /** The key a script wrote last: its next {@code expire} is that write's TTL, not a renewal. */
    private String justWritten;

    /**
     * A listener that reads owners with {@code reader}, remembering them in {@code owners} across
     * reconnects, and records into {@code history} as {@code actor}, or in their own columns for the keys
     * {@code keyColumns} draws apart (leaving out those it hides). {@code warmUpLock} is the fixture's own lock; {@code subscribed} is counted down
     * once every channel is subscribed, and a key in {@code catchingUp} has its latch counted down when its
     * notification arrives.
     */
    KeyEventListener(Jedis reader, Map<String, String> owners, History history, String actor, String warmUpLock,
            KeyColumns keyColumns, CountDownLatch subscribed, Map<String, CountDownLatch> catchingUp) {
        this.reader = reader;
        this.owners = owners;
        this.history = history;
        this.actor = actor;
        this.warmUpLock = warmUpLock;
        this.keyColumns = keyColumns;
        this.subscribed = subscribed;
        this.catchingUp = catchingUp;
    }

    /** Lets the watch go on once every channel is subscribed. */
    @Override
    public void onSubscribe(String channel, int count) {
        if (count == CHANNELS.length) {
            subscribed.countDown();
        }
    }

    /** Records what one key event means for the lock, or lets a waiting catch-up go on. */
    @Override
    public void onMessage(String channel, String key) {
        long at = history.now();
        String event = channel.substring(EVENTS.length());
        CountDownLatch caughtUp = catchingUp.get(key);
        if (caughtUp != null) {
            caughtUp.countDown();
            return;
        }
        if (key.startsWith(CATCH_UP_MARKER) || keyColumns.hides(key)) {
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
                history.recordAt(at, actorOf(key), Kind.RENEWED, about(key, "renewed"));
            }
        } else {
            justWritten = null;
            owners.remove(key);
            history.recordAt(at, actorOf(key), event.equals("expired") ? Kind.EXPIRED : Kind.DELETED,
                    about(key, event.equals("del") ? "deleted" : event));
        }
    }

    /** After a reconnect: what the node stores now, recorded as holds where it differs from what was seen. */
    void rescan() {
        long at = history.now();
        Set<String> keys = reader.keys("*");
        owners.keySet().retainAll(keys);
        for (String key : keys) {
            if (!isFixture(key) && !keyColumns.hides(key)) {
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
                history.recordAt(at, actorOf(key), Kind.HELD, "");
            }
            throw e;
        }
        if (ttl.get() == GONE) {
            if (owners.putIfAbsent(key, "") == null) {
                history.recordAt(at, actorOf(key), Kind.HELD, "");
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
        history.recordAt(at, actorOf(key), Kind.HELD, owner);
    }

    /** Who records {@code key}'s events: the key's own column, or the node's. */
    private String actorOf(String key) {
        String column = keyColumns.column(key);
        return column == null ? actor : History.REDIS + "/" + column;
    }

    /** What happened to {@code key}, in words: its own column names it already. */
    private String about(String key, String what) {
        return keyColumns.column(key) == null ? key + " " + what : what;
    }

    /**
     * Whether {@code key} is the fixture's (a replication marker, the warm-up lock) or a lock's helper
     * key rather than the lock's own: the hash tells the story.
     */
    private boolean isFixture(String key) {
        return key.startsWith(RedisNode.REPLICATION_MARKER) || key.equals(warmUpLock)
                || key.contains(":rwlock_timeout:")
                || key.startsWith("redisson_lock_queue:") || key.startsWith("redisson_lock_timeout:");
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
