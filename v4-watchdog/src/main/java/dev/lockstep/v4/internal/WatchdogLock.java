package dev.lockstep.v4.internal;

import dev.lockstep.DistLock;
import dev.lockstep.internal.AbstractDistLock;
import dev.lockstep.internal.AbstractLocks;
import dev.lockstep.internal.Lease;
import dev.lockstep.internal.LuaScript;
import dev.lockstep.v3.internal.RedissonLayout;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;
import redis.clients.jedis.exceptions.JedisConnectionException;

/**
 * The stage-4 lock: stage 3's hash, its holds kept in a {@link HoldTable} and watched by the
 * client's {@link Watchdog}. A lock taken without an explicit lease gets the watchdog timeout and
 * is renewed every third of it while held, so work may take as long as it takes; a crashed holder
 * stops renewing and its lease runs out.
 *
 * <p>Unlike Redisson, the holder is told when a lease is lost (Redis unreachable too long, or
 * the field gone): {@link #isHeldByCurrentThread()} turns false, {@link DistLock#onLeaseLost}
 * listeners fire once, and {@code unlock()} throws saying when the lease was lost.
 *
 * <p>Because the watchdog makes a forgotten hold permanent, every script writes the count the
 * client keeps instead of adding to Redis's: a take sets the field to the caller's holds plus one,
 * an unlock to its holds minus one. A call whose reply was lost (a first take, a re-entry, an
 * unlock) may have changed Redis or not; the thread's next call writes what the client believes
 * either way, and a last unlock that failed is sent again in the background. A thread that holds
 * nothing takes over a field of its own (a grant whose reply was lost); a re-entry that finds its
 * field gone learns that its hold was lost.
 */
public class WatchdogLock extends AbstractDistLock {

    private static final LuaScript LOCK = LuaScript.load(WatchdogLock.class, "lock-or-take-over.lua");
    private static final LuaScript UNLOCK = LuaScript.load(WatchdogLock.class, "unlock-counted.lua");

    private final HoldTable holds;
    private final String channel;
    private final ReplicaSync replicaSync;

    /** The lock called {@code name} of {@code client}, renewed by the client's {@code watchdog}. */
    public WatchdogLock(String name, AbstractLocks client, Watchdog watchdog) {
        this(name, client, watchdog, RedissonLayout.releaseChannel(name));
    }

    /** As above, announcing releases on {@code channel} instead of Redisson's lock channel. */
    protected WatchdogLock(String name, AbstractLocks client, Watchdog watchdog, String channel) {
        super(name, client);
        this.channel = channel;
        this.holds = watchdog.holds(name, this::signalLeaseLost, this::owner, lostHoldUndo());
        this.replicaSync = options().syncReplicas() > 0
                ? new ReplicaSync(options().syncReplicas(), options().syncTimeout().toMillis()) : null;
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
        return writingCounts(() -> take(lease, owner, sent));
    }

    /** {@link #tryAcquire} once pending give-backs are sent: the script, and the grant recorded. */
    private Long take(Lease lease, String owner, long sent) {
        int held = holds.depth();
        List<String> args = lockArgs(lease, owner, held);
        Object reply;
        try {
            reply = replicaSync == null ? lockScript().run(redis(), lockKeys(), args)
                    : replicaSync.lock(redis(), name(), key(), pipeline -> lockScript().queue(pipeline, lockKeys(), args),
                            held == 0, () -> unlockScript(owner, held + 1));
        } catch (JedisConnectionException e) {
            // A re-entry that may have run needs nothing undone: the thread's next call writes its count.
            // An interrupted first take may have been granted on a thread that is on its way out (on JDK 21's
            // virtual threads the interrupt closes the socket under the call): undone by the give-back thread.
            if (held == 0 && Thread.currentThread().isInterrupted()) {
                holds.giveBackLater(() -> giveBackQuietly(owner));
            }
            throw e;
        }
        Long holderLease = blockedFor(reply);
        if (holderLease != null) {
            if (held > 0) {
                holds.lose("a re-entry found this owner's field gone from Redis");
            }
            return holderLease;
        }
        try {
            holds.acquired(sent, lease, () -> renew(owner, lease.millis()));
        } catch (IllegalStateException closed) {
            // The client closed while the script ran: nobody would renew or release this grant.
            try {
                unlockScript(owner, held + 1);
            } catch (RuntimeException undoFailed) {
                closed.addSuppressed(undoFailed);
            }
            throw closed;
        }
        granted(reply);
        return null;
    }

    /** Undoes a hold {@code owner} may have in Redis without believing it, as {@link GiveBacks#send} sends it. */
    private void giveBackQuietly(String owner) {
        GiveBacks.send(() -> unlockScript(owner, 1));
    }

    /** Renews {@code owner}'s hold for {@code leaseMillis} with stage 3's extend; false when Redis no longer has it. */
    protected boolean renew(String owner, long leaseMillis) {
        return RedissonLayout.extend(redis(), key(), owner, leaseMillis);
    }

    /** A renewal the caller asks for: {@link #renew} with its lease, and the hold keeps that lease from now on. */
    @Override
    protected final void extendHold(Lease lease) {
        String owner = threadOwner();
        holds.extend(lease, () -> renew(owner, lease.millis()), () -> giveBackQuietly(owner));
    }

    /**
     * Runs the unlock script for {@code owner}, who had {@code holds} holds: nil (not the owner),
     * 0 (it still holds) or 1 (its last hold ended).
     */
    protected Object unlockScript(String owner, int holds) {
        return UNLOCK.run(redis(), List.of(key(), channel),
                List.of(owner, RedissonLayout.RELEASED, Integer.toString(holds)));
    }

    /** The hold table's release protocol, with stage 4's unlock script. */
    @Override
    protected final void release() {
        String owner = threadOwner();
        writingCounts(() -> holds.release(new Unlock<Object>() {
            @Override
            public Object run(int held) {
                try {
                    return unlockScript(owner, held);
                } catch (JedisConnectionException unknown) {
                    // Maybe not run, yet the last hold has ended: a give-back soon makes Redis store what the owner believes.
                    if (held == 1) {
                        holds.giveBackLater(() -> giveBackQuietly(owner));
                    }
                    throw unknown;
                }
            }

            @Override
            public boolean refused(Object reply) {
                return reply == null;
            }

            @Override
            public void notHeld() {
                giveBackQuietly(owner);
            }
        }));
    }

    /** Local and instant: what thread {@code threadId} holds, nothing once its lease was lost. */
    protected final HeldState heldBy(long threadId) {
        return holds.heldBy(threadId);
    }

    /** Local and instant: this thread's count of holds, 0 once its lease was lost. */
    @Override
    public final int holdCount() {
        return holds.depth();
    }

    /** Local and instant: held from acquisition until the last unlock or the moment the lease is lost. */
    @Override
    public final boolean isHeldByCurrentThread() {
        return holds.isHeld();
    }

    /** Stage 3's: deletes the hash and announces the release; a holder here learns at its next renewal. */
    @Override
    public boolean forceUnlock() {
        return ask("forceUnlock", () -> RedissonLayout.forceUnlock(redis(), key(), channel));
    }

    // What later stages change: the script that takes the lock, its keys and arguments, what its grant
    // carries, who may take it at all, and what a lost hold leaves behind.

    /**
     * The script that takes the lock, given {@link #lockArgs}. It answers a number when someone else
     * holds the lock (their lease left, in ms) and anything else when taken: nil here.
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

    /** How many ms the holder's lease still runs, given what {@link #lockScript()} answered; null when it took the lock. */
    protected Long blockedFor(Object reply) {
        return reply instanceof Long holderLease ? holderLease : null;
    }

    /** Called on the taking thread with what {@link #lockScript()} answered when it took the lock. */
    protected void granted(Object reply) {
    }

    /** Throws, before anything is sent, when this thread may not take the lock at all (never here). */
    protected void checkMayAcquire() {
    }

    /**
     * Runs {@code write}, which writes the calling thread's count to Redis and records it here. A lock whose
     * count is summed with other locks' runs these one at a time per owner, so none sends a stale sum.
     */
    protected <T> T writingCounts(Supplier<T> write) {
        return write.get();
    }

    /**
     * What undoes in Redis a hold its owner lost (its lease ran out, its thread ended, Redis was out
     * of reach), given the owner; asked once, at construction. None here: the hold's field lives no
     * longer than its own lease.
     */
    protected Consumer<String> lostHoldUndo() {
        return null;
    }
}
