package dev.lockstep.v5;

import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
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
 * One pub/sub connection per client, shared by all its waiters. A channel is subscribed while at
 * least one waiter uses it and unsubscribed when the last one leaves; with no channel left the
 * connection goes back to the pool and the thread ends.
 *
 * <p>Each release message adds one permit to the channel's semaphore, so it wakes one waiter of
 * this client, not all of them: waiters of one client do not race each other in Redis. A permit
 * that arrives before anyone sleeps is kept, so a wake-up is never lost.
 */
final class Subscriber implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Subscriber.class);

    private final UnifiedJedis redis;
    private final String threadName;
    private final Duration retry;
    private final Map<String, Channel> wanted = new HashMap<>();
    private final Set<String> requested = new HashSet<>();
    private Listener listener;
    private Thread thread;
    private boolean draining;
    private boolean closed;

    Subscriber(UnifiedJedis redis, String threadName, Duration retry) {
        this.redis = redis;
        this.threadName = threadName;
        this.retry = retry;
    }

    /** A channel's waiters: how many, and the permits release messages leave for them. */
    static final class Channel {

        private final String name;
        private final Semaphore releases = new Semaphore(0);
        private final CountDownLatch subscribed = new CountDownLatch(1);
        private int users;

        private Channel(String name) {
            this.name = name;
        }

        /** Sleeps until a release message arrives or {@code nanos} pass; true when woken by a message. */
        boolean awaitRelease(long nanos) throws InterruptedException {
            return releases.tryAcquire(nanos, TimeUnit.NANOSECONDS);
        }
    }

    /**
     * Joins {@code name}'s waiters, subscribing if this is the first. Returns once Redis confirmed
     * the subscription, or after {@code confirmWithin}: a missing confirmation costs waits bounded
     * by the lock's remaining lease, never a hang.
     */
    Channel join(String name, Duration confirmWithin) throws InterruptedException {
        Channel channel;
        synchronized (this) {
            if (closed) {
                throw new IllegalStateException("the subscriber is closed");
            }
            channel = wanted.computeIfAbsent(name, Channel::new);
            if (channel.users++ == 0) {
                reconcile();
            }
        }
        channel.subscribed.await(confirmWithin.toNanos(), TimeUnit.NANOSECONDS);
        return channel;
    }

    /** Leaves {@code channel}'s waiters, unsubscribing after the last. */
    synchronized void leave(Channel channel) {
        if (--channel.users == 0) {
            wanted.remove(channel.name);
            reconcile();
        }
    }

    /** The channels subscribed right now, as Redis was asked. */
    synchronized Set<String> channels() {
        return Set.copyOf(requested);
    }

    /** Unsubscribes everything and ends the thread. */
    @Override
    public void close() {
        Thread running;
        synchronized (this) {
            closed = true;
            wanted.clear();
            reconcile();
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

    /**
     * Brings the connection's subscriptions in line with the wanted channels. Called with the
     * monitor held. While the last channels are being dropped the connection is draining: its
     * read loop ends when Redis confirms zero subscriptions, and a new subscribe sent then would
     * be left unread, so the loop resubscribes whatever is wanted by then instead.
     */
    private void reconcile() {
        if (thread == null) {
            if (!wanted.isEmpty()) {
                start();
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

    private void start() {
        thread = new Thread(this::run, threadName);
        thread.setDaemon(true);
        thread.start();
    }

    /** The read loop: one subscription at a time, resubscribing while anything is wanted. */
    private void run() {
        while (true) {
            Listener current;
            String[] names;
            synchronized (this) {
                if (closed || wanted.isEmpty()) {
                    thread = null;
                    listener = null;
                    return;
                }
                names = wanted.keySet().toArray(String[]::new);
                requested.clear();
                requested.addAll(Set.of(names));
                draining = false;
                current = listener = new Listener();
            }
            try {
                redis.subscribe(current, names);
            } catch (JedisException e) {
                log.debug("subscription lost; waiters fall back to lease-bounded waits until it is back", e);
                pauseBeforeRetry();
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

        @Override
        public void onSubscribe(String channel, int subscribedChannels) {
            synchronized (Subscriber.this) {
                Channel waiting = wanted.get(channel);
                if (waiting != null) {
                    waiting.subscribed.countDown();
                }
                // Joins and leaves that came while the connection was still opening are sent now.
                reconcile();
            }
        }

        @Override
        public void onMessage(String channel, String message) {
            synchronized (Subscriber.this) {
                Channel waiting = wanted.get(channel);
                if (waiting != null) {
                    waiting.releases.release();
                }
            }
        }
    }
}
