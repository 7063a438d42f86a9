package dev.lockstep.v5.internal;

import dev.lockstep.LockObserver;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import redis.clients.jedis.UnifiedJedis;

/**
 * Lets a client's waiters sleep until a lock is released: the waiter side. One pub/sub
 * connection per Redis node ({@link NodeSubscription}) is shared by all the client's waiters: a
 * channel is wanted ({@link WantedChannels}), and subscribed, while at least one waiter uses it and
 * unsubscribed when the last one leaves; with no channel left a connection is closed (never handed
 * back to its pool, where it could answer another caller's command with a release message) and
 * its thread ends.
 *
 * <p>Waiters of one client do not race each other in Redis: they queue for their turn locally,
 * and only the waiter whose turn it is tries and sleeps on the channel. A release message adds a
 * permit that wakes it; a permit that arrives before anyone sleeps is kept, so a wake-up is never
 * lost. A connection that dies is replaced, and its replacement wakes every waiter once, since a
 * release may have been published while nobody listened. A connection that silently stops
 * answering is noticed by the probes the sleeping waiter sends every {@link #HEARTBEAT}. And a
 * message that never arrives costs a sleep bounded by the holder's remaining lease, never a hang.
 */
public final class Subscriber implements AutoCloseable {

    /** How often a sleeping waiter probes its subscription, and how long the probe may go unanswered. */
    public static final Duration HEARTBEAT = Duration.ofMillis(500);

    /** One attempt to take a lock: null when taken, else how many ms the holder's lease still runs (negative if unknown). */
    @FunctionalInterface
    public interface Attempt {

        /** Tries once. */
        Long tryOnce();
    }

    private final WantedChannels wanted;
    /** The wanted channels' lock, which also guards every connection's state. */
    private final ReentrantLock guard;
    private final List<NodeSubscription> connections = new ArrayList<>();
    private final Duration retry;
    private final LockObserver observer;

    /**
     * A subscriber over {@code nodes}, its threads named after {@code threadName}, retrying a lost
     * connection every {@code retry}, telling {@code observer} which channels it takes and drops.
     */
    public Subscriber(List<UnifiedJedis> nodes, String threadName, Duration retry, LockObserver observer) {
        this.retry = retry;
        this.observer = observer;
        this.wanted = new WantedChannels(nodes.size());
        this.guard = wanted.guard();
        for (int i = 0; i < nodes.size(); i++) {
            String name = nodes.size() == 1 ? threadName : threadName + "-n" + (i + 1);
            connections.add(new NodeSubscription(wanted, nodes.get(i), name, retry));
        }
    }

    /**
     * Waits up to {@code waitNanos} ({@code < 0}: forever) for {@code attempt} to succeed, sleeping
     * on {@code channel} between tries: subscribe (waiting at most {@code confirmWithin}, and never
     * past the wait, for Redis to confirm), try again (a release just before the subscription is
     * not missed), then sleep until a release message or the holder's lease ends. An interrupt
     * ends the wait with {@link InterruptedException}, holding nothing. The try made once subscribed is
     * {@code firstTry}: {@code attempt} itself, or a cheaper look that tries only when it may succeed.
     */
    public boolean await(String channel, long waitNanos, Duration confirmWithin, Attempt attempt, Attempt firstTry)
            throws InterruptedException {
        long deadline = System.nanoTime() + waitNanos;
        ReleaseChannel releases = join(channel);
        boolean myTurn = false;
        try {
            long confirmNanos = confirmWithin.toNanos();
            // A missing confirmation costs sleeps bounded by the holder's lease, never a hang.
            releases.subscribed.await(waitNanos < 0 ? confirmNanos : Math.min(confirmNanos, deadline - System.nanoTime()),
                    TimeUnit.NANOSECONDS);
            releases.checkNotRefused();
            myTurn = waitNanos < 0 ? acquireTurn(releases)
                    : releases.turn.tryAcquire(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
            if (!myTurn) {
                return false;
            }
            Attempt next = firstTry;
            while (true) {
                Long holderLease = next.tryOnce();
                if (holderLease == null) {
                    return true;
                }
                next = attempt;
                long left = waitNanos < 0 ? Long.MAX_VALUE : deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                // A lease about to end (0 ms) means try again at once; an unknown one, after the retry interval.
                long leaseNanos = holderLease >= 0 ? TimeUnit.MILLISECONDS.toNanos(holderLease) : retry.toNanos();
                sleep(releases, Math.min(left, leaseNanos));
                releases.checkNotRefused();
            }
        } finally {
            if (myTurn) {
                releases.turn.release();
            }
            leave(releases);
        }
    }

    /** Sleeps until a release is announced or {@code nanos} pass, checking the connections every heartbeat. */
    private void sleep(ReleaseChannel releases, long nanos) throws InterruptedException {
        long until = System.nanoTime() + nanos;
        for (long left = nanos; left > 0; left = until - System.nanoTime()) {
            if (releases.permits.tryAcquire(Math.min(left, HEARTBEAT.toNanos()), TimeUnit.NANOSECONDS)) {
                // The next try sees every release announced so far: one wake-up answers them all
                // (a quorum lock announces one release on each of its nodes).
                releases.permits.drainPermits();
                return;
            }
            heartbeat();
        }
    }

    private void heartbeat() {
        guard.lock();
        try {
            connections.forEach(c -> c.heartbeat(HEARTBEAT.toNanos()));
        } finally {
            guard.unlock();
        }
    }

    private static boolean acquireTurn(ReleaseChannel channel) throws InterruptedException {
        channel.turn.acquire();
        return true;
    }

    /** The channels subscribed right now on any node, as Redis was asked. */
    public Set<String> channels() {
        guard.lock();
        try {
            Set<String> all = new HashSet<>();
            connections.forEach(c -> all.addAll(c.requested()));
            return all;
        } finally {
            guard.unlock();
        }
    }

    /** Unsubscribes everything and ends the threads. */
    @Override
    public void close() {
        guard.lock();
        try {
            wanted.close();
            connections.forEach(NodeSubscription::reconcile);
        } finally {
            guard.unlock();
        }
        connections.forEach(NodeSubscription::join);
    }

    /** Joins {@code name}'s waiters, subscribing if this is the first. */
    private ReleaseChannel join(String name) {
        guard.lock();
        try {
            ReleaseChannel channel = wanted.join(name);
            if (channel.users == 1) {
                connections.forEach(NodeSubscription::reconcile);
                observer.subscription(name, true);
            }
            return channel;
        } finally {
            guard.unlock();
        }
    }

    private void leave(ReleaseChannel channel) {
        guard.lock();
        try {
            if (wanted.leave(channel)) {
                connections.forEach(NodeSubscription::reconcile);
                observer.subscription(channel.name, false);
            }
        } finally {
            guard.unlock();
        }
    }
}
