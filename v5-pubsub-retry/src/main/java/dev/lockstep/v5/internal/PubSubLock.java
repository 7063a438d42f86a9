package dev.lockstep.v5.internal;

import dev.lockstep.internal.AbstractLocks;
import dev.lockstep.internal.Lease;
import dev.lockstep.internal.Patience;
import dev.lockstep.v3.internal.RedissonLayout;
import dev.lockstep.v4.internal.Watchdog;
import dev.lockstep.v4.internal.WatchdogLock;

/**
 * The stage-5 lock: stage 4's, waiting as Redisson does ({@link AcquireLoop}). Try once; if the lock is held,
 * subscribe to its release channel and loop: try again, and if still held sleep on the channel
 * for at most the holder's remaining lease (and the remaining wait). A release message wakes
 * one waiter of this client; a lost message costs one lease-bounded sleep, never a hang. The
 * unlock script is stage 3's, which already publishes {@value RedissonLayout#RELEASED} on the
 * channel when the last hold goes: from this stage on, someone here listens.
 */
public class PubSubLock extends WatchdogLock {

    private final Subscriber subscriber;

    /** The lock called {@code name} of {@code client}, renewed by {@code watchdog}, waiting through {@code subscriber}. */
    public PubSubLock(String name, AbstractLocks client, Watchdog watchdog, Subscriber subscriber) {
        super(name, client, watchdog);
        this.subscriber = subscriber;
    }

    /** As above, waiting on and announcing releases on {@code channel} instead of Redisson's lock channel. */
    protected PubSubLock(String name, AbstractLocks client, Watchdog watchdog, Subscriber subscriber, String channel) {
        super(name, client, watchdog, channel);
        this.subscriber = subscriber;
    }

    @Override
    protected final boolean acquire(Lease lease, long waitNanos) throws InterruptedException {
        checkNotInterrupted();
        Patience patience = patience(waitNanos);
        // A failed attempt reports an unknown holder lease: the waiter sleeps one retry interval.
        Subscriber.Attempt attempt = () -> patience.attempt(() -> ask("acquire", () -> tryAcquire(lease)), -1L);
        AcquireLoop loop = new AcquireLoop(name(), subscriber, options().spinInterval().multipliedBy(10),
                this::isHeldByCurrentThread, () -> options().spinInterval().toNanos());
        boolean acquired = false;
        try {
            acquired = loop.run(waitChannel(), waitNanos, attempt, first -> onceListening(first, attempt));
            return acquired;
        } finally {
            if (!acquired) {
                leaveIfWaiting();
            }
        }
    }

    /**
     * A single try ({@code tryLock()}) that finds the lock held stops waiting at once, as a timed-out
     * wait does: a fair lock's queue must not keep a caller who already went away.
     */
    @Override
    protected final boolean tryAcquireOnce(Lease lease) {
        boolean taken = false;
        try {
            taken = tryAcquire(lease) == null;
            return taken;
        } finally {
            if (!taken) {
                leaveIfWaiting();
            }
        }
    }

    /**
     * Tells {@link #stoppedWaiting()} unless no try can have made this thread a waiter: its client is
     * closed (nothing was sent), or it still holds the lock (a re-entry never waits). Also after a try
     * that threw: it may have put this thread in a fair lock's queue before its reply was lost.
     */
    private void leaveIfWaiting() {
        if (!isClosed() && !isHeldByCurrentThread()) {
            stoppedWaiting();
        }
    }

    /**
     * What a waiter whose first try answered {@code reply} does once it listens on its channel, since
     * a release announced before the subscription went unheard: here {@code attempt}, a full try.
     */
    protected Subscriber.Attempt onceListening(long reply, Subscriber.Attempt attempt) {
        return attempt;
    }

    /** The channel this thread sleeps on while it waits: the lock's release channel, shared by all its waiters. */
    protected String waitChannel() {
        return channel();
    }

    /**
     * Called on a thread that stops trying without the lock (found it held, timed out, interrupted, or
     * failed): nothing to undo here, since a waiter leaves no trace in Redis.
     * Must not throw.
     */
    protected void stoppedWaiting() {
    }
}
