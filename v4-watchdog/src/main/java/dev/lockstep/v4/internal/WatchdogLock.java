package dev.lockstep.v4.internal;

import dev.lockstep.DistLock;
import dev.lockstep.LockException;
import dev.lockstep.internal.AbstractDistLock;
import dev.lockstep.internal.AbstractLocks;
import dev.lockstep.internal.Lease;
import dev.lockstep.internal.LuaScript;
import dev.lockstep.v3.ReentrantHashLocks;
import dev.lockstep.v4.WatchdogLocks;
import java.time.Duration;
import java.util.List;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.exceptions.JedisConnectionException;

/**
 * The stage-4 lock: stage 3's scripts, unchanged, and the client's {@link Watchdog} watching each holding thread.
 * A lock taken without an explicit lease gets the watchdog timeout and is renewed every third
 * of it while held, so work may take as long as it takes; a crashed holder stops renewing and
 * its lease runs out.
 *
 * <p>Unlike Redisson, the holder is told when a lease is lost (Redis unreachable too long, or
 * the field gone): {@link #isHeldByCurrentThread()} turns false, {@link DistLock#onLeaseLost}
 * listeners fire once, and {@code unlock()} throws saying when the lease was lost.
 *
 * <p>Because the watchdog makes a forgotten hold permanent, this stage keeps its own count of
 * what each thread holds, and every script writes that count instead of adding to Redis's: a
 * take sets the field to the caller's holds plus one, an unlock to its holds minus one. A call
 * whose reply was lost (a first take, a re-entry, an unlock) may have changed Redis or not; the
 * thread's next call writes what the client believes either way, so the last unlock always ends
 * the hold. A thread that holds nothing takes over a field of its own (a grant whose reply was
 * lost); a re-entry that finds its field gone learns that its hold was lost.
 */
public class WatchdogLock extends AbstractDistLock {

    private static final LuaScript LOCK = LuaScript.load(WatchdogLocks.class, "lock-or-take-over.lua");
    private static final LuaScript UNLOCK = LuaScript.load(WatchdogLocks.class, "unlock-counted.lua");
    private static final LuaScript RENEW = LuaScript.load(WatchdogLocks.class, "renew.lua");

    private final Watchdog watchdog;
    private final Watchdog.Holds holds;
    private final String channel;

    /** The lock called {@code name} of {@code client}, renewed by the client's {@code watchdog}. */
    public WatchdogLock(String name, AbstractLocks client, Watchdog watchdog) {
        this(name, client, watchdog, ReentrantHashLocks.releaseChannel(name));
    }

    /** As above, announcing releases on {@code channel} instead of Redisson's lock channel. */
    protected WatchdogLock(String name, AbstractLocks client, Watchdog watchdog, String channel) {
        super(name, client);
        this.channel = channel;
        this.watchdog = watchdog;
        this.holds = watchdog.holds(name, this::signalLeaseLost, this::owner, this::undoLostHold);
    }

    /** The channel releases are announced and awaited on: Redisson's lock channel, as in stage 3, unless given another. */
    protected final String channel() {
        return channel;
    }

    /** No lease given: the watchdog's, renewed while held. */
    @Override
    protected Duration defaultLease() {
        return options().watchdogTimeout();
    }

    @Override
    protected boolean tryAcquireOnce(Lease lease) {
        return tryAcquire(lease) == null;
    }

    /** One attempt: null when taken (and watched), else how many ms the holder's lease still runs. */
    protected final Long tryAcquire(Lease lease) {
        checkMayAcquire();
        long sent = System.nanoTime();
        String owner = threadOwner();
        holds.settle();
        int held = holds.depth();
        boolean reentry = held > 0;
        List<String> args = lockArgs(lease, owner, held);
        watchdog.awaitGiveBack(name(), owner);
        Object reply;
        try {
            reply = options().syncReplicas() > 0
                    ? lockOnReplicas(args, owner, held) : lockScript().run(redis(), lockKeys(), args);
        } catch (JedisConnectionException e) {
            // A re-entry that may have run needs nothing undone: the thread's next call writes its count.
            if (!reentry && Thread.currentThread().isInterrupted()) {
                watchdog.giveBackLater(name(), owner, () -> giveBackQuietly(owner));
            }
            throw e;
        }
        if (reply instanceof Long holderLease) {
            if (reentry) {
                holds.lose("a re-entry found this owner's field gone from Redis");
            }
            return holderLease;
        }
        try {
            holds.acquired(sent, lease, () -> renew(owner, lease.millis()));
        } catch (IllegalStateException closed) {
            // The client closed while the script ran: nobody would renew or release this grant.
            giveBack(owner, held + 1, closed);
            throw closed;
        }
        granted(reply);
        return null;
    }

    /**
     * Undoes in Redis the hold {@code owner} lost (its lease ran out, its thread ended, Redis was out of
     * reach): nothing here, since the hold's field lives no longer than its own lease. Runs on the
     * watchdog's give-back thread before the owner's next call. Must not throw.
     */
    protected void undoLostHold(String owner) {
    }

    /** Throws, before anything is sent, when this thread may not take the lock at all (none here). */
    protected void checkMayAcquire() {
    }

    /**
     * The script that takes the lock, given the lease, the owner and whether the caller holds nothing
     * yet. It answers a number when someone else holds the lock (their lease left, in ms) and
     * anything else when taken: nil here, more in a later stage.
     */
    protected LuaScript lockScript() {
        return LOCK;
    }

    /** The arguments of {@link #lockScript()}: the lease in ms, the owner, and how many holds the caller has. */
    protected List<String> lockArgs(Lease lease, String owner, int holds) {
        return List.of(Long.toString(lease.millis()), owner, Integer.toString(holds));
    }

    /** The keys {@link #lockScript()} touches: here the lock's hash alone. */
    protected List<String> lockKeys() {
        return List.of(key());
    }

    /** Called on the taking thread with what {@link #lockScript()} answered when it took the lock. */
    protected void granted(Object reply) {
    }

    /**
     * Undoes the grant a call interrupted while it waited for its reply may have left: on a virtual
     * thread (JDK 21 on) the interrupt closes the socket under the call, so the script may have
     * granted a hold the thread never heard of, and the thread is on its way out. Sent by the
     * watchdog's give-back thread, so the interrupted thread returns at once; quietly, since on
     * failure the grant's lease still ends it.
     */
    private void giveBackQuietly(String owner) {
        try {
            unlockScript(owner, 1);
        } catch (RuntimeException failed) {
            // Its lease ends it.
        }
    }

    /** Undoes the grant that made {@code holds} holds, quietly: on failure its lease still ends it. */
    private void giveBack(String owner, int holds, RuntimeException cause) {
        try {
            unlockScript(owner, holds);
        } catch (RuntimeException undoFailed) {
            cause.addSuppressed(undoFailed);
        }
    }

    /**
     * The lock script followed by {@code WAIT} on the same connection: the acquisition counts only
     * once enough replicas have it. Otherwise it is undone and reported.
     */
    private Object lockOnReplicas(List<String> args, String owner, int held) {
        int replicas = options().syncReplicas();
        long timeout = options().syncTimeout().toMillis();
        Response<Object> reply;
        Response<Long> acknowledged;
        try (AbstractPipeline pipeline = redis().pipelined()) {
            reply = lockScript().queue(pipeline, lockKeys(), args);
            acknowledged = pipeline.waitReplicas(key(), replicas, timeout);
            pipeline.sync();
        } catch (JedisConnectionException e) {
            // The script may have run before the connection gave up on WAIT: give back what a first hold may
            // have granted (a re-entry keeps its outer hold, and the thread's next call writes its count).
            if (held == 0) {
                giveBack(owner, 1, e);
            }
            throw e;
        }
        if (!(reply.get() instanceof Long) && acknowledged.get() < replicas) {
            unlockScript(owner, held + 1);
            throw new LockException(name(), "taken on the master, but only " + acknowledged.get() + " of " + replicas
                    + " replicas acknowledged it within " + timeout + " ms, so it was released");
        }
        return reply.get();
    }

    /** Renews {@code owner}'s hold for {@code leaseMillis}; false when Redis no longer has it. */
    protected boolean renew(String owner, long leaseMillis) {
        return Long.valueOf(1).equals(RENEW.run(redis(), List.of(key()), List.of(Long.toString(leaseMillis), owner)));
    }

    /**
     * Runs the unlock script for {@code owner}, who had {@code holds} holds: nil (not the owner),
     * 0 (it still holds) or 1 (its last hold ended).
     */
    protected Object unlockScript(String owner, int holds) {
        return UNLOCK.run(redis(), List.of(key(), channel),
                List.of(owner, ReentrantHashLocks.RELEASED, Integer.toString(holds)));
    }

    /**
     * Ends one hold, whatever Redis answers: a call that failed may have run, and the thread's next
     * call writes its count anyway. A thread that holds nothing here is refused, as a non-owner is;
     * it first gives back a field of its own it may find (a grant whose reply was lost).
     */
    @Override
    protected final void release() {
        int held = holds.releasing();
        if (held == 0) {
            giveBackQuietly(threadOwner());
            throw new IllegalMonitorStateException("lock '" + name() + "' is not held by this thread");
        }
        boolean notTheOwner = false;
        try {
            notTheOwner = unlockScript(threadOwner(), held) == null;
        } finally {
            holds.released(held == 1 || notTheOwner);
        }
        if (notTheOwner) {
            throw new IllegalMonitorStateException("lock '" + name() + "' is not held by this thread");
        }
    }

    /** Local and instant: this thread's count of holds, 0 once its lease was lost. */
    @Override
    public final int holdCount() {
        return holds.depth();
    }

    /** Stage 3's: deletes the hash and announces the release; a holder here learns at its next renewal. */
    @Override
    public boolean forceUnlock() {
        return ask("forceUnlock", () -> ReentrantHashLocks.forceUnlock(redis(), key(), channel));
    }

    /** Local and instant: held from acquisition until the last unlock or the moment the lease is lost. */
    @Override
    public final boolean isHeldByCurrentThread() {
        return holds.isHeld();
    }
}
