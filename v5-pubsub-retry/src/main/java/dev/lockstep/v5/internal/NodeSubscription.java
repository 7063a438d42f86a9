package dev.lockstep.v5.internal;

import dev.lockstep.internal.Patience;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.Connection;
import redis.clients.jedis.JedisPubSub;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.RedisClusterClient;
import redis.clients.jedis.RedisSentinelClient;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.util.JedisClusterCRC16;
import redis.clients.jedis.util.Pool;

/**
 * The connection side of a {@link Subscriber}: one pub/sub connection to one Redis node, its read
 * thread, and the channels it asked Redis for. Every field is guarded by the subscriber's lock.
 *
 * <pre>
 * state        thread   connection  what happens
 * IDLE         none     none        a wanted channel starts the thread
 * CONNECTING   running  opening     the first confirmation sends whatever changed meanwhile; none within a
 *                                   heartbeat of the SUBSCRIBE cuts the connection (RETRYING)
 * SUBSCRIBED   running  open        joins and leaves are sent at once; PINGs check it is alive
 * DRAINING     running  open        the last channels were dropped: the read loop ends on Redis's answer,
 *                                   then subscribes what is wanted by then, or returns the connection and ends
 * RETRYING     running  none        the connection failed: a pause, then CONNECTING again, and every
 *                                   waiter gets a wake-up for the releases it may have missed
 * </pre>
 */
final class NodeSubscription {

    private static final Logger log = LoggerFactory.getLogger(NodeSubscription.class);

    private enum State { IDLE, CONNECTING, SUBSCRIBED, DRAINING, RETRYING }

    private final Subscriber subscriber;
    /** The subscriber's lock, which guards every field here: a lock, not a monitor, since its holders write to sockets. */
    private final ReentrantLock guard;
    private final UnifiedJedis redis;
    private final String threadName;
    private final Duration retry;
    private final Set<String> requested = new HashSet<>();
    private State state = State.IDLE;
    private Listener listener;
    private Connection connection;
    private Thread thread;
    /** When the request still unanswered was sent (the first SUBSCRIBE, or a PING); 0 when none is. */
    private long probeSentAt;
    private long lastHeardAt;
    /** The last failure logged at WARN, so an outage is logged once per cause, not once per retry. */
    private String lastWarned;

    NodeSubscription(Subscriber subscriber, UnifiedJedis redis, String threadName, Duration retry) {
        this.subscriber = subscriber;
        this.guard = subscriber.guard();
        this.redis = redis;
        this.threadName = threadName;
        this.retry = retry;
    }

    /** The channels Redis was asked for. */
    Set<String> requested() {
        return requested;
    }

    /** Brings the subscriptions in line with the wanted channels, as far as the state allows. */
    void reconcile() {
        if (state == State.IDLE) {
            if (!subscriber.wanted().isEmpty()) {
                state = State.CONNECTING;
                thread = new Thread(this::run, threadName);
                thread.setDaemon(true);
                thread.start();
            }
        } else if (state == State.SUBSCRIBED) {
            sendChanges();
        }
    }

    private void sendChanges() {
        Set<String> add = new HashSet<>(subscriber.wanted().keySet());
        add.removeAll(requested);
        Set<String> drop = new HashSet<>(requested);
        drop.removeAll(subscriber.wanted().keySet());
        try {
            if (!add.isEmpty()) {
                requested.addAll(add);
                listener.subscribe(add.toArray(String[]::new));
            }
            if (!drop.isEmpty()) {
                requested.removeAll(drop);
                state = requested.isEmpty() ? State.DRAINING : state;
                listener.unsubscribe(drop.toArray(String[]::new));
            }
        } catch (JedisException e) {
            // The connection broke under the write: the read loop fails too and subscribes what is wanted then.
            log.debug("subscription write failed; the read loop reconnects", e);
            cut();
        }
    }

    /**
     * Called by waiters while they sleep: when the connection has been silent for
     * {@code patienceNanos}, sends a PING; when a PING, or the first SUBSCRIBE, went unanswered
     * that long, cuts the connection. A half-open socket (the peer gone without a FIN or RST, such
     * as one that died idle in the pool) never fails a read by itself; this is what notices it. A
     * connection that carries messages is never pinged.
     */
    void heartbeat(long patienceNanos) {
        if (state != State.SUBSCRIBED && state != State.CONNECTING) {
            return;
        }
        long now = System.nanoTime();
        if (probeSentAt != 0) {
            if (now - probeSentAt >= patienceNanos) {
                log.debug("subscription connection {} did not answer in time; reconnecting", threadName);
                cut();
            }
            return;
        }
        if (state == State.CONNECTING || now - lastHeardAt < patienceNanos) {
            return;
        }
        try {
            probeSentAt = now;
            listener.ping();
        } catch (JedisException e) {
            cut();
        }
    }

    /** Closes the connection under the read loop, which then reconnects. */
    private void cut() {
        if (connection != null) {
            try {
                connection.forceDisconnect();
            } catch (Exception e) {
                // Closed either way.
            }
        }
    }

    /** Waits a few seconds for the read thread to end, after the subscriber dropped every channel. */
    void join() {
        Thread running;
        guard.lock();
        try {
            running = thread;
        } finally {
            guard.unlock();
        }
        if (running != null) {
            try {
                running.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** The read loop: one connection at a time, reconnecting while anything is wanted. */
    private void run() {
        boolean reconnected = false;
        while (true) {
            Listener current;
            String[] names;
            guard.lock();
            try {
                Map<String, ReleaseChannel> wanted = subscriber.wanted();
                if (wanted.isEmpty()) {
                    state = State.IDLE;
                    thread = null;
                    listener = null;
                    requested.clear();
                    return;
                }
                names = wanted.keySet().toArray(String[]::new);
                requested.clear();
                requested.addAll(Set.of(names));
                state = State.CONNECTING;
                probeSentAt = 0;
                lastHeardAt = System.nanoTime();
                current = listener = new Listener(reconnected);
            } finally {
                guard.unlock();
            }
            try {
                subscribe(current, names);
                reconnected = false;
            } catch (JedisException e) {
                // Redis answered no (an ACL without the channel or the command): no retry will change that.
                boolean refused = Patience.refused(e);
                guard.lock();
                try {
                    // Nothing may be written to the dead listener's connection while we pause.
                    state = State.RETRYING;
                    listener = null;
                    requested.clear();
                    if (refused) {
                        subscriber.wanted().values().forEach(channel -> channel.refused(e));
                    }
                } finally {
                    guard.unlock();
                }
                logFailure(e, refused);
                pauseBeforeRetry();
                reconnected = true;
            } finally {
                guard.lock();
                try {
                    connection = null;
                } finally {
                    guard.unlock();
                }
            }
        }
    }

    /** WARN once per cause of an outage; the same cause again, retry after retry, at DEBUG. */
    private void logFailure(JedisException e, boolean refused) {
        String cause = e.getClass().getSimpleName() + ": " + e.getMessage();
        boolean first;
        guard.lock();
        try {
            first = !cause.equals(lastWarned);
            lastWarned = cause;
        } finally {
            guard.unlock();
        }
        String message = refused ? "subscription on {} refused by Redis ({}); its waiters fail with a LockException"
                : "subscription on {} failed ({}); waiters sleep at most a holder's lease until it is back";
        if (first) {
            log.warn(message, threadName, cause);
        } else {
            log.debug(message, threadName, cause);
        }
    }

    /** Runs {@code current} on a connection of our own where we can get one, so a heartbeat can cut it. */
    private void subscribe(Listener current, String[] names) {
        Connection own = borrow(names[0]);
        if (own == null) {
            redis.subscribe(current, names);
            return;
        }
        boolean drained = false;
        try {
            guard.lock();
            try {
                connection = own;
                // The SUBSCRIBE goes out next: unconfirmed for a heartbeat, it tells a dead connection.
                probeSentAt = System.nanoTime();
            } finally {
                guard.unlock();
            }
            current.proceed(own, names);
            drained = true;
        } finally {
            if (!drained) {
                // The read loop broke off (Jedis 8 fails it on a RESP3 PONG that outruns its ping's
                // handler): the connection may still be subscribed, or hold replies nobody read.
                // Back in the pool it would answer another call's command with them.
                own.setBroken();
            }
            own.close();
        }
    }

    /** A connection from the client's pool, or null when the client has no pool we can reach. */
    private Connection borrow(String channel) {
        if (redis instanceof RedisClient client) {
            return client.getPool().getResource();
        }
        if (redis instanceof RedisClusterClient cluster) {
            // A PUBLISH reaches subscribers on every node of a cluster: any node will do, the channel's is natural.
            return cluster.getConnectionFromSlot(JedisClusterCRC16.getSlot(channel));
        }
        if (redis instanceof RedisSentinelClient sentinel && sentinel.getPrimaryNodesConnectionMap().size() == 1) {
            Pool<Connection> master = sentinel.getPrimaryNodesConnectionMap().values().iterator().next();
            return master.getResource();
        }
        return null;
    }

    private void pauseBeforeRetry() {
        try {
            Thread.sleep(retry.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Turns Redis's pub/sub replies into wake-ups. Runs on the read thread. */
    private final class Listener extends JedisPubSub {

        private final boolean afterReconnection;

        Listener(boolean afterReconnection) {
            this.afterReconnection = afterReconnection;
        }

        @Override
        public void onSubscribe(String channel, int subscribedChannels) {
            guard.lock();
            try {
                lastHeardAt = System.nanoTime();
                // Back: the next outage is news again.
                lastWarned = null;
                ReleaseChannel waiting = subscriber.wanted().get(channel);
                if (waiting != null) {
                    waiting.confirmed(afterReconnection);
                }
                if (state == State.CONNECTING) {
                    state = State.SUBSCRIBED;
                    probeSentAt = 0;
                    // Joins and leaves that came while the connection was opening are sent now.
                    sendChanges();
                }
            } finally {
                guard.unlock();
            }
        }

        /**
         * The read loop ends (and hands the connection back) after the last unsubscribe reply.
         * Redis may answer before the waiter that wrote the unsubscribe has returned from its
         * write; taking the lock here makes the loop wait for that writer.
         */
        @Override
        public void onUnsubscribe(String channel, int subscribedChannels) {
            guard.lock();
            try {
                // Nothing to do inside: entering is the point.
                assert guard.isHeldByCurrentThread();
            } finally {
                guard.unlock();
            }
        }

        @Override
        public void onPong(String pattern) {
            guard.lock();
            try {
                probeSentAt = 0;
                lastHeardAt = System.nanoTime();
            } finally {
                guard.unlock();
            }
        }

        @Override
        public void onMessage(String channel, String message) {
            guard.lock();
            try {
                lastHeardAt = System.nanoTime();
                ReleaseChannel waiting = subscriber.wanted().get(channel);
                if (waiting != null) {
                    waiting.permits.release();
                }
            } finally {
                guard.unlock();
            }
        }
    }
}
