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
 * <p>Because the watchdog makes a forgotten hold permanent, this stage also keeps its own count
 * of what each thread holds and tells the lock script whether an acquisition is a re-entry. A
 * thread that holds nothing takes over a field of its own it finds in Redis with a count of 1:
 * that field is a grant whose reply was lost, or a hold already declared lost, and adding to it
 * would leave a hold that no unlock ends.
 */
public class WatchdogLock extends AbstractDistLock {

    private static final LuaScript LOCK = LuaScript.load(WatchdogLocks.class, "lock-or-take-over.lua");
    private static final LuaScript UNLOCK = LuaScript.load(ReentrantHashLocks.class, "unlock-and-publish.lua");
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
        this.holds = watchdog.holds(name, this::signalLeaseLost);
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
    protected final boolean tryAcquireOnce(Lease lease) {
        return tryAcquire(lease) == null;
    }

    /** One attempt: null when taken (and watched), else how many ms the holder's lease still runs. */
    protected final Long tryAcquire(Lease lease) {
        checkMayAcquire();
        long sent = System.nanoTime();
        String owner = threadOwner();
        boolean reentry = holds.isHeld();
        List<String> args = lockArgs(lease, owner, !reentry);
        watchdog.awaitGiveBack(name(), owner);
        Object reply;
        try {
            reply = options().syncReplicas() > 0
                    ? lockOnReplicas(args, owner, reentry) : lockScript().run(redis(), lockKeys(), args);
        } catch (JedisConnectionException e) {
            if (!reentry && Thread.currentThread().isInterrupted()) {
                watchdog.giveBackLater(name(), owner, () -> giveBackQuietly(owner));
            }
            throw e;
        }
        if (reply instanceof Long holderLease) {
            return holderLease;
        }
        try {
            holds.acquired(sent, lease, () -> renew(owner, lease.millis()));
        } catch (IllegalStateException closed) {
            // The client closed while the script ran: nobody would renew or release this grant.
            giveBack(owner, closed);
            throw closed;
        }
        granted(reply);
        return null;
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

    /**
     * The arguments of {@link #lockScript()}: the lease in ms, the owner, and {@code 1} when the
     * caller holds nothing yet ({@code fresh}) or {@code 0} for a re-entry.
     */
    protected List<String> lockArgs(Lease lease, String owner, boolean fresh) {
        return List.of(Long.toString(lease.millis()), owner, fresh ? "1" : "0");
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
            unlockScript(owner);
        } catch (RuntimeException failed) {
            // Its lease ends it.
        }
    }

    /** Undoes one grant, quietly: on failure its lease still ends it. */
    private void giveBack(String owner, RuntimeException cause) {
        try {
            unlockScript(owner);
        } catch (RuntimeException undoFailed) {
            cause.addSuppressed(undoFailed);
        }
    }

    /**
     * The lock script followed by {@code WAIT} on the same connection: the acquisition counts only
     * once enough replicas have it. Otherwise it is undone and reported.
     */
    private Object lockOnReplicas(List<String> args, String owner, boolean reentry) {
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
            // have granted (a re-entry keeps its outer hold; an extra count goes with that hold's lease).
            if (!reentry) {
                giveBack(owner, e);
            }
            throw e;
        }
        if (!(reply.get() instanceof Long) && acknowledged.get() < replicas) {
            unlockScript(owner);
            throw new LockException(name(), "taken on the master, but only " + acknowledged.get() + " of " + replicas
                    + " replicas acknowledged it within " + timeout + " ms, so it was released");
        }
        return reply.get();
    }

    /** Renews {@code owner}'s hold for {@code leaseMillis}; false when Redis no longer has it. */
    protected boolean renew(String owner, long leaseMillis) {
        return Long.valueOf(1).equals(RENEW.run(redis(), List.of(key()), List.of(Long.toString(leaseMillis), owner)));
    }

    /** Runs the unlock script for {@code owner}: nil (not the owner), 0 (it still holds) or 1 (its last hold ended). */
    protected Object unlockScript(String owner) {
        return UNLOCK.run(redis(), List.of(key(), channel), List.of(owner, ReentrantHashLocks.RELEASED));
    }

    @Override
    protected final void release() {
        holds.releasing();
        Object released = null;
        try {
            released = unlockScript(threadOwner());
        } finally {
            holds.released(released == null || Long.valueOf(1).equals(released));
        }
        if (released == null) {
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
