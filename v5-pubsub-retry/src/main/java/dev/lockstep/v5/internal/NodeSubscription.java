package dev.lockstep.v5.internal;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.Connection;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisException;

/**
 * The connection side of a {@link Subscriber}: one pub/sub connection to one Redis node, its read
 * thread ({@link ReadLoop}), and the channels it asked Redis for. Every field is guarded by the {@link WantedChannels}'
 * lock; the connection's liveness is its {@link Heartbeat}'s, its failures' logging its {@link OutageLog}'s.
 *
 * <pre>
 * state        thread   connection  what happens
 * IDLE         none     none        a wanted channel starts the thread
 * CONNECTING   running  opening     the first confirmation sends whatever changed meanwhile; none within a
 *                                   heartbeat of the SUBSCRIBE cuts the connection (RETRYING)
 * SUBSCRIBED   running  open        joins and leaves are sent at once; probes check it is alive
 * DRAINING     running  open        the last channels were dropped: the read loop ends on Redis's answer,
 *                                   then subscribes what is wanted by then, or closes the connection and ends
 * RETRYING     running  none        the connection failed: a pause, then CONNECTING again, and every
 *                                   waiter gets a wake-up for the releases it may have missed
 * </pre>
 */
final class NodeSubscription implements SubscriptionListener.Events, ReadLoop.Steps {

    private static final Logger log = LoggerFactory.getLogger(NodeSubscription.class);

    private enum State { IDLE, CONNECTING, SUBSCRIBED, DRAINING, RETRYING }

    /**
     * The heartbeat's probe is an UNSUBSCRIBE of this channel, which no subscription asks for: Redis
     * answers it in the subscription's own format, its count unchanged, on RESP2 and RESP3 alike. A
     * PING would not do: on RESP3 (Jedis 8's default) a subscribed PING gets a plain PONG, which Jedis's
     * listener places only if the PING's handler is queued first, and Jedis queues it after sending the
     * PING, so a read thread that wins the race breaks its loop.
     */
    static final String PROBE_CHANNEL = "lockstep:subscription-probe";

    private final WantedChannels wanted;
    private final ReentrantLock guard;
    private final UnifiedJedis redis;
    private final String threadName;
    private final Duration retry;
    private final Heartbeat heartbeat;
    private final OutageLog outages;
    private final Set<String> requested = new HashSet<>();
    private State state = State.IDLE;
    private SubscriptionListener listener;
    private Thread thread;

    /** A subscription to {@code redis} for the {@code wanted} channels, its thread called {@code threadName}, retrying every {@code retry}. */
    NodeSubscription(WantedChannels wanted, UnifiedJedis redis, String threadName, Duration retry) {
        this.wanted = wanted;
        this.guard = wanted.guard();
        this.redis = redis;
        this.threadName = threadName;
        this.retry = retry;
        this.outages = new OutageLog(threadName);
        this.heartbeat = new Heartbeat(threadName);
    }

    /** The channels Redis was asked for. */
    Set<String> requested() {
        return requested;
    }

    /** Brings the subscriptions in line with the wanted channels, as far as the state allows. */
    void reconcile() {
        if (state == State.IDLE) {
            if (!wanted.names().isEmpty()) {
                state = State.CONNECTING;
                thread = new Thread(new ReadLoop(this, redis, retry, outages), threadName);
                thread.setDaemon(true);
                thread.start();
            }
        } else if (state == State.SUBSCRIBED) {
            sendChanges();
        }
    }

    private void sendChanges() {
        Set<String> add = new HashSet<>(wanted.names());
        add.removeAll(requested);
        Set<String> drop = new HashSet<>(requested);
        drop.removeAll(wanted.names());
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
            heartbeat.cut();
        }
    }

    /** Called by waiters while they sleep, with the guard held: see {@link Heartbeat}. */
    void heartbeat(long patienceNanos) {
        if (state == State.SUBSCRIBED || state == State.CONNECTING) {
            heartbeat.check(patienceNanos, state == State.CONNECTING, () -> listener.unsubscribe(PROBE_CHANNEL));
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

    @Override
    public ReadLoop.Start next(boolean reconnected) {
        guard.lock();
        try {
            requested.clear();
            if (wanted.names().isEmpty()) {
                state = State.IDLE;
                thread = null;
                listener = null;
                return null;
            }
            String[] names = wanted.names().toArray(String[]::new);
            requested.addAll(Set.of(names));
            state = State.CONNECTING;
            heartbeat.opening();
            listener = new SubscriptionListener(this, reconnected);
            return new ReadLoop.Start(listener, names);
        } finally {
            guard.unlock();
        }
    }

    @Override
    public void connected(Connection own) {
        guard.lock();
        try {
            // Unconfirmed for a heartbeat, the SUBSCRIBE about to go out tells a dead connection.
            heartbeat.connected(own);
        } finally {
            guard.unlock();
        }
    }

    @Override
    public void failed(JedisException e, boolean refused) {
        guard.lock();
        try {
            // Nothing may be written to the dead listener's connection while the loop pauses.
            state = State.RETRYING;
            listener = null;
            requested.clear();
            if (refused) {
                wanted.all().forEach(channel -> channel.refused(e));
            }
        } finally {
            guard.unlock();
        }
    }

    @Override
    public void closed() {
        guard.lock();
        try {
            heartbeat.closed();
        } finally {
            guard.unlock();
        }
    }

    @Override
    public void confirmed(String channel, boolean afterReconnection) {
        guard.lock();
        try {
            heartbeat.heard();
            outages.back();
            ReleaseChannel waiting = wanted.get(channel);
            if (waiting != null) {
                waiting.confirmed(afterReconnection);
            }
            if (state == State.CONNECTING) {
                state = State.SUBSCRIBED;
                heartbeat.answered();
                // Joins and leaves that came while the connection was opening are sent now.
                sendChanges();
            }
        } finally {
            guard.unlock();
        }
    }

    /**
     * An unsubscribe reply answers the probe, if one is out: the connection is alive. And the read
     * loop ends (and closes the connection) after the last one. Redis may answer before the waiter
     * that wrote the unsubscribe has returned from its write; taking the lock here makes the loop
     * wait for that writer.
     */
    @Override
    public void unsubscribed() {
        guard.lock();
        try {
            heartbeat.answered();
        } finally {
            guard.unlock();
        }
    }

    @Override
    public void released(String channel) {
        guard.lock();
        try {
            heartbeat.heard();
            ReleaseChannel waiting = wanted.get(channel);
            if (waiting != null) {
                waiting.permits.release();
            }
        } finally {
            guard.unlock();
        }
    }
}
