package dev.lockstep.v5;

import dev.lockstep.Lease;
import dev.lockstep.LuaScript;
import dev.lockstep.v4.WatchdogLock;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The stage-5 lock: stage 4's, waiting as Redisson does. Try once; if the lock is held,
 * subscribe to its release channel and loop: try again, and if still held sleep on the channel
 * for at most the holder's remaining lease (and the remaining wait). A release message wakes
 * one waiter of this client; a lost message costs one lease-bounded sleep, never a hang. The
 * unlock script publishes {@value #RELEASED} on the channel when the last hold goes.
 */
final class PubSubLock extends WatchdogLock {

    /** Redisson's channel prefix and message, so Redisson's waiters and ours wake each other. */
    private static final String CHANNEL_PREFIX = "redisson_lock__channel:";
    private static final String RELEASED = "0";
    private static final LuaScript UNLOCK = LuaScript.load(PubSubLock.class, "unlock.lua");

    private final Subscriber subscriber;

    PubSubLock(String name, PubSubLocks client, Subscriber subscriber) {
        super(name, client);
        this.subscriber = subscriber;
    }

    /** The release channel: {@code redisson_lock__channel:{name}}, in the lock key's Cluster slot. */
    private String channel() {
        return CHANNEL_PREFIX + key();
    }

    @Override
    protected Object unlockScript(String owner) {
        return UNLOCK.run(redis(), List.of(key(), channel()), List.of(owner, RELEASED));
    }

    @Override
    protected boolean acquire(Lease lease, long waitNanos) throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException("interrupted before acquiring lock '" + name() + "'");
        }
        long deadline = System.nanoTime() + waitNanos;
        if (ask("acquire", () -> tryAcquire(lease)) == null) {
            return true;
        }
        if (waitNanos == 0) {
            return false;
        }
        Subscriber.Channel releases = subscriber.join(channel(), options().spinInterval().multipliedBy(10));
        try {
            while (true) {
                // Tried again after subscribing: a release just before the subscription is not missed.
                Long holderLease = ask("acquire", () -> tryAcquire(lease));
                if (holderLease == null) {
                    return true;
                }
                long left = waitNanos < 0 ? Long.MAX_VALUE : deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                long leaseNanos = holderLease > 0 ? TimeUnit.MILLISECONDS.toNanos(holderLease) : spinNanos();
                releases.awaitRelease(Math.min(left, leaseNanos));
            }
        } finally {
            subscriber.leave(releases);
        }
    }

    private long spinNanos() {
        return options().spinInterval().toNanos();
    }
}
