package dev.lockstep.v5;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.JedisPubSub;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisException;

/**
 * Lets a client's waiters sleep until a lock is released. One pub/sub connection per Redis node,
 * shared by all the client's waiters: a channel is subscribed while at least one waiter uses it
 * and unsubscribed when the last one leaves; with no channel left a connection goes back to its
 * pool and its thread ends.
 *
 * <p>Waiters of one client do not race each other in Redis: they queue for their turn locally,
 * and only the waiter whose turn it is tries and sleeps on the channel. A release message adds a
 * permit that wakes it; a permit
 * that arrives before anyone sleeps is kept, so a wake-up is never lost; a message that never
 * arrives costs a sleep bounded by the holder's remaining lease, never a hang.
 */
public final class Subscriber implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Subscriber.class);

    /** One attempt to take a lock: null when taken, else how many ms the holder's lease still runs (negative if unknown). */
    @FunctionalInterface
    public interface Attempt {

        /** Tries once. */
        Long tryOnce();
    }

    private final List<NodeConnection> connections = new ArrayList<>();
    private final Map<String, Channel> wanted = new HashMap<>();
    private final Duration retry;
    private boolean closed;

    /** A subscriber over {@code nodes}, its threads named after {@code threadName}, retrying a lost connection every {@code retry}. */
    public Subscriber(List<UnifiedJedis> nodes, String threadName, Duration retry) {
        this.retry = retry;
        for (int i = 0; i < nodes.size(); i++) {
            connections.add(new NodeConnection(nodes.get(i), nodes.size() == 1 ? threadName : threadName + "-n" + (i + 1)));
        }
    }

    /**
     * Waits up to {@code waitNanos} ({@code < 0}: forever) for {@code attempt} to succeed, sleeping
     * on {@code channel} between tries: subscribe, try again (a release just before the
     * subscription is not missed), then sleep until a release message or the holder's lease ends.
     * An interrupt ends the wait with {@link InterruptedException}, holding nothing.
     */
    public boolean await(String channel, long waitNanos, Duration confirmWithin, Attempt attempt)
            throws InterruptedException {
        long deadline = System.nanoTime() + waitNanos;
        Channel releases = join(channel);
        boolean myTurn = false;
        try {
            // A missing confirmation costs sleeps bounded by the holder's lease, never a hang.
            releases.subscribed.await(confirmWithin.toNanos(), TimeUnit.NANOSECONDS);
            // One waiter of this client at a time asks Redis; the others queue here, in order.
            myTurn = waitNanos < 0 ? acquireTurn(releases)
                    : releases.turn.tryAcquire(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
            if (!myTurn) {
                return false;
            }
            while (true) {
                Long holderLease = attempt.tryOnce();
                if (holderLease == null) {
                    return true;
                }
                long left = waitNanos < 0 ? Long.MAX_VALUE : deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                // A lease about to end (0 ms) means try again at once; an unknown one, after the retry interval.
                long leaseNanos = holderLease >= 0 ? TimeUnit.MILLISECONDS.toNanos(holderLease) : retry.toNanos();
                if (releases.permits.tryAcquire(Math.min(left, leaseNanos), TimeUnit.NANOSECONDS)) {
                    // The next try sees every release announced so far: one wake-up answers them all
                    // (a quorum lock announces one release on each of its nodes).
                    releases.permits.drainPermits();
                }
            }
        } finally {
            if (myTurn) {
                releases.turn.release();
            }
            leave(releases);
        }
    }

    private static boolean acquireTurn(Channel channel) throws InterruptedException {
        channel.turn.acquire();
        return true;
    }

    /** The channels subscribed right now on any node, as Redis was asked. */
    public synchronized Set<String> channels() {
        Set<String> all = new HashSet<>();
        connections.forEach(c -> all.addAll(c.requested));
        return all;
    }

    /** Unsubscribes everything and ends the threads. */
    @Override
    public void close() {
        synchronized (this) {
            closed = true;
            wanted.clear();
            connections.forEach(NodeConnection::reconcile);
        }
        for (NodeConnection connection : connections) {
            connection.join();
        }
    }

    /** A channel's waiters: how many, and the permits release messages leave for them. */
    private static final class Channel {

        private final String name;
        private final Semaphore permits = new Semaphore(0);
        private final Semaphore turn = new Semaphore(1, true);
        private final CountDownLatch subscribed;
        private int users;

        private Channel(String name, int nodes) {
            this.name = name;
            this.subscribed = new CountDownLatch(nodes);
        }
    }

    /** Joins {@code name}'s waiters, subscribing if this is the first. */
    private synchronized Channel join(String name) {
        if (closed) {
            throw new IllegalStateException("the subscriber is closed");
        }
        Channel channel = wanted.computeIfAbsent(name, n -> new Channel(n, connections.size()));
        if (channel.users++ == 0) {
            connections.forEach(NodeConnection::reconcile);
        }
        return channel;
    }

    private synchronized void leave(Channel channel) {
        if (--channel.users == 0) {
            wanted.remove(channel.name);
            connections.forEach(NodeConnection::reconcile);
        }
    }

    /** The subscription on one node: its thread, and what it asked Redis for. All state is guarded by the subscriber. */
    private final class NodeConnection {

        private final UnifiedJedis redis;
        private final String threadName;
        private final Set<String> requested = new HashSet<>();
        private Listener listener;
        private Thread thread;
        private boolean draining;

        NodeConnection(UnifiedJedis redis, String threadName) {
            this.redis = redis;
            this.threadName = threadName;
        }

        /**
         * Brings the subscriptions in line with the wanted channels. While the last channels are
         * being dropped the connection is draining: its read loop ends when Redis confirms zero
         * subscriptions, and a subscribe sent then would be left unread, so the loop resubscribes
         * whatever is wanted by then instead.
         */
        void reconcile() {
            if (thread == null) {
                if (!wanted.isEmpty()) {
                    thread = new Thread(this::run, threadName);
                    thread.setDaemon(true);
                    thread.start();
                }
                return;
            }
            if (draining || listener == null || !listener.isSubscribed()) {
                return;
            }
            Set<String> add = new HashSet<>(wanted.keySet());
            add.removeAll(requested);
            Set<String> drop = new HashSet<>(requested);
            drop.removeAll(wanted.keySet());
            if (!add.isEmpty()) {
                listener.subscribe(add.toArray(String[]::new));
                requested.addAll(add);
            }
            if (!drop.isEmpty()) {
                listener.unsubscribe(drop.toArray(String[]::new));
                requested.removeAll(drop);
                draining = requested.isEmpty();
            }
        }

        /** The read loop: one subscription at a time, resubscribing while anything is wanted. */
        private void run() {
            while (true) {
                Listener current;
                String[] names;
                synchronized (Subscriber.this) {
                    if (closed || wanted.isEmpty()) {
                        thread = null;
                        listener = null;
                        requested.clear();
                        return;
                    }
                    names = wanted.keySet().toArray(String[]::new);
                    requested.clear();
                    requested.addAll(Set.of(names));
                    draining = false;
                    current = listener = new Listener(this);
                }
                try {
                    redis.subscribe(current, names);
                } catch (JedisException e) {
                    log.debug("subscription lost; waiters fall back to lease-bounded sleeps until it is back", e);
                    pauseBeforeRetry();
                }
            }
        }

        void join() {
            Thread running;
            synchronized (Subscriber.this) {
                running = thread;
            }
            if (running != null) {
                try {
                    running.join(TimeUnit.SECONDS.toMillis(5));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    private void pauseBeforeRetry() {
        try {
            Thread.sleep(retry.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private final class Listener extends JedisPubSub {

        private final NodeConnection connection;

        Listener(NodeConnection connection) {
            this.connection = connection;
        }

        @Override
        public void onSubscribe(String channel, int subscribedChannels) {
            synchronized (Subscriber.this) {
                Channel waiting = wanted.get(channel);
                if (waiting != null) {
                    waiting.subscribed.countDown();
                }
                // Joins and leaves that came while the connection was still opening are sent now.
                connection.reconcile();
            }
        }

        /**
         * Runs on the read loop, which ends (and hands the connection back to its pool) after the
         * last unsubscribe reply. Redis may answer before the waiter that wrote the unsubscribe has
         * returned from its write; taking the monitor here makes the loop wait for that writer.
         */
        @Override
        public void onUnsubscribe(String channel, int subscribedChannels) {
            synchronized (Subscriber.this) {
                // Nothing to do inside: entering is the point.
                assert Thread.holdsLock(Subscriber.this);
            }
        }

        @Override
        public void onMessage(String channel, String message) {
            synchronized (Subscriber.this) {
                Channel waiting = wanted.get(channel);
                if (waiting != null) {
                    waiting.permits.release();
                }
            }
        }
    }
}
