package dev.lockstep.fair;

import dev.lockstep.internal.AbstractLocks;
import dev.lockstep.internal.Lease;
import dev.lockstep.internal.LuaScript;
import dev.lockstep.v3.internal.RedissonLayout;
import dev.lockstep.v4.internal.Watchdog;
import dev.lockstep.v5.internal.PubSubLock;
import dev.lockstep.v5.internal.Subscriber;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stage 5's lock, granted in turn: a thread that finds the lock held joins the lock's queue in
 * Redis and sleeps on a channel of its own; a release wakes the head of the queue alone, and a
 * free lock goes to nobody else while someone queues. A live waiter asks again at least every
 * third of the waiter timeout, which keeps its place; a waiter that died is dropped once its
 * timeout passes, so it holds up the queue for at most that long.
 */
final class FairLock extends PubSubLock {

    private static final Logger LOG = LoggerFactory.getLogger(FairLock.class);
    private static final LuaScript LOCK = LuaScript.load(FairLocks.class, "fair-lock.lua");
    private static final LuaScript UNLOCK = LuaScript.load(FairLocks.class, "fair-unlock.lua");
    private static final LuaScript LEAVE = LuaScript.load(FairLocks.class, "leave-queue.lua");
    private static final LuaScript FORCE_UNLOCK = LuaScript.load(FairLocks.class, "force-unlock.lua");

    /** What the lock script answers a waiter that has just joined behind others; -1 is a failed try's. */
    private static final long JOINED_BEHIND = -2;

    private final String waiterTimeoutMillis;
    /** How long a waiter sleeps at most before it asks again: a third of the waiter timeout, in ms. */
    private final long third;
    /** The hash, the queue, the waiters' deadlines, and the prefix of the waiters' channels. */
    private final List<String> keys;
    /** The hash, the queue and the channel prefix: what a release touches. */
    private final List<String> releaseKeys;

    FairLock(String name, AbstractLocks client, Watchdog watchdog, Subscriber subscriber, Duration waiterTimeout) {
        super(name, client, watchdog, subscriber);
        this.waiterTimeoutMillis = Long.toString(waiterTimeout.toMillis());
        this.third = waiterTimeout.toMillis() / 3;
        this.keys = List.of(key(), FairKeys.queue(name), FairKeys.deadlines(name), channel());
        this.releaseKeys = List.of(key(), FairKeys.queue(name), channel());
    }

    @Override
    protected LuaScript lockScript() {
        return LOCK;
    }

    /** The hash, the queue and the waiters' deadlines. */
    @Override
    protected List<String> lockKeys() {
        return keys.subList(0, 3);
    }

    /** Stage 4's, and the waiter timeout. */
    @Override
    protected List<String> lockArgs(Lease lease, String owner, int holds) {
        List<String> args = new ArrayList<>(super.lockArgs(lease, owner, holds));
        args.add(waiterTimeoutMillis);
        return args;
    }

    /**
     * Once listening, a waiter that joined behind others ({@code -2}) first looks whether it became
     * the head of the queue meanwhile ({@code LINDEX}), and tries only then: a release meant for it
     * may have been announced before it listened. A look is a sixth of the Redis work of a full try,
     * and most waiters of a long queue are not the head yet. One that is not sleeps a third of the
     * waiter timeout at most: a live head's deadline is further away than that, so a dead head is
     * still dropped in time.
     */
    @Override
    protected Subscriber.Attempt onceListening(long reply, Subscriber.Attempt attempt) {
        if (reply != JOINED_BEHIND) {
            return attempt;
        }
        return () -> {
            String head;
            try {
                head = redis().lindex(keys.get(1), 0);
            } catch (RuntimeException lookFailed) {
                return attempt.tryOnce();
            }
            if (threadOwner().equals(head)) {
                return attempt.tryOnce();
            }
            return third;
        };
    }

    /** A channel of the thread's own, {@code redisson_lock__channel:{name}:owner}: a release wakes the head alone. */
    @Override
    protected String waitChannel() {
        return channel() + ":" + threadOwner();
    }

    @Override
    protected void stoppedWaiting() {
        try {
            LEAVE.run(redis(), keys, List.of(threadOwner(), RedissonLayout.RELEASED));
        } catch (RuntimeException e) {
            // The place is dropped anyway once its deadline passes; the caller's own failure says more.
            LOG.debug("lock '{}': could not leave the queue, its deadline will: {}", name(), e.toString());
        }
    }

    @Override
    protected Object unlockScript(String owner, int holds) {
        return UNLOCK.run(redis(), releaseKeys, List.of(owner, RedissonLayout.RELEASED, Integer.toString(holds)));
    }

    /** Deletes the hash and wakes the head of the queue; a holder here learns at its next renewal. */
    @Override
    public boolean forceUnlock() {
        return ask("forceUnlock", () -> Long.valueOf(1).equals(FORCE_UNLOCK.run(redis(), releaseKeys,
                List.of(RedissonLayout.RELEASED))));
    }
}
