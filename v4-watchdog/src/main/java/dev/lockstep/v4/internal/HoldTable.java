package dev.lockstep.v4.internal;

import dev.lockstep.internal.Caller;
import dev.lockstep.LeaseLoss;
import dev.lockstep.LeaseLostException;
import dev.lockstep.LockObserver;
import dev.lockstep.internal.Lease;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.LongFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The holds of one lock by this client, one {@link Hold} per holding thread, and the one release
 * protocol every lock from stage 4 on follows. Every call is about the calling thread.
 *
 * <p>Since the client keeps the count, Redis's count is written from it: each lock and unlock
 * script gets the thread's holds before the call ({@link #depth()}), so a call whose reply was
 * lost is put right by the thread's next one.
 */
public final class HoldTable {

    private static final Logger log = LoggerFactory.getLogger(HoldTable.class);

    private final String lockName;
    private final Consumer<LeaseLoss> onLost;
    private final LongFunction<String> ownerOf;
    private final Consumer<String> undo;
    private final Renewer renewer;
    private final LeaseClock clock;
    private final GiveBacks giveBacks;
    private final LockObserver observer;
    private final Map<Long, Hold> byThread = new ConcurrentHashMap<>();

    /** See {@link Watchdog#holds(String, Consumer, LongFunction, Consumer)}. */
    HoldTable(String lockName, Consumer<LeaseLoss> onLost, LongFunction<String> ownerOf, Consumer<String> undo,
            Renewer renewer, LeaseClock clock, GiveBacks giveBacks, LockObserver observer) {
        this.lockName = lockName;
        this.onLost = onLost;
        this.ownerOf = ownerOf;
        this.undo = undo;
        this.renewer = renewer;
        this.clock = clock;
        this.giveBacks = giveBacks;
        this.observer = observer;
    }

    /**
     * The calling thread just took the lock with a request sent at {@code sentNanos} for
     * {@code lease}, which the lock script set in Redis. A default lease is renewed with
     * {@code renew} (true: renewed, false: no longer ours, an exception: unknown) from then on,
     * also when it re-enters a hold that had an explicit lease. Throws
     * {@link IllegalStateException} when the client is closed: the caller must give the grant back.
     */
    public void acquired(long sentNanos, Lease lease, BooleanSupplier renew) {
        Caller owner = Caller.current();
        Hold hold = byThread.get(owner.id());
        boolean fresh = hold == null || !hold.isHeld();
        if (fresh) {
            hold = new Hold(lockName, owner, clock, this::lost);
        }
        if (clock.closed()) {
            throw closed();
        }
        try {
            hold.acquired(sentNanos, lease);
            if (!lease.explicit() && !hold.renewing()) {
                long leaseNanos = TimeUnit.MILLISECONDS.toNanos(lease.millis());
                hold.renewedBy(renewer.everyThirdOf(lease.millis(), new Renewal(hold, renew, leaseNanos, observer)));
            }
        } catch (RejectedExecutionException closed) {
            hold.abandon();
            throw closed();
        }
        if (fresh) {
            byThread.put(owner.id(), hold);
        }
    }

    /**
     * Before the calling thread asks Redis for this lock: a hold whose deadline passed is lost now,
     * if the clock has not said so yet, so that its undo is pending before the new request is sent;
     * then any give-back still pending for the thread is sent first.
     */
    public void settle() {
        Hold hold = byThread.get(Caller.currentId());
        if (hold != null) {
            hold.loseIfPastDeadline();
        }
        giveBacks.await(lockName, ownerOf.apply(Caller.currentId()));
    }

    /** Sends {@code giveBack} soon on the client's give-back thread, and before the calling thread's next call here. */
    public void giveBackLater(Runnable giveBack) {
        giveBacks.later(lockName, ownerOf.apply(Caller.currentId()), giveBack);
    }

    /** How many holds the calling thread has (acquisitions minus unlocks), 0 when it holds none. */
    public int depth() {
        return heldBy(Caller.currentId()).depth();
    }

    /** What thread {@code threadId} holds; asked by another thread, as its owner last left it. */
    public HeldState heldBy(long threadId) {
        Hold hold = byThread.get(threadId);
        return hold != null && hold.isHeld() ? new HeldState(hold.depth(), hold.leaseEnd()) : HeldState.NONE;
    }

    /** Whether the calling thread holds the lock: until its last unlock or the moment its lease is lost. */
    public boolean isHeld() {
        Hold hold = byThread.get(Caller.currentId());
        return hold != null && hold.isHeld();
    }

    /** The calling thread's hold is gone from Redis, as a call of its own found: it is lost, and told so. */
    public void lose(String reason) {
        Hold hold = byThread.get(Caller.currentId());
        if (hold != null) {
            hold.lose(reason);
        }
    }

    /**
     * Sets the calling thread's lease with {@code set} (true: set, false: not ours, an exception: unknown); no
     * renewals after. A lease set after the old one ran out here is undone with {@code giveBack}: the loss stands.
     */
    public void extend(Lease lease, BooleanSupplier set, Runnable giveBack) {
        Hold hold = byThread.get(Caller.currentId());
        if (hold != null) {
            hold.loseIfPastDeadline();
        }
        if (hold == null || !hold.isHeld()) {
            throw hold != null && hold.lostAt() != null ? new LeaseLostException(loss(hold)) : notHeld();
        }
        // A renewal whose outcome is unknown may still land after this lease: trust the shorter of the two.
        long renewalMayLeave = hold.stopRenewing();
        long sent = System.nanoTime();
        boolean ours;
        try {
            ours = set.getAsBoolean();
        } catch (RuntimeException unknown) {
            // Either lease may be the one Redis keeps: trust the shorter, and count on the old one in Redis.
            long believed = Math.min(Math.min(hold.deadline(), renewalMayLeave), LeaseClock.deadline(sent, lease));
            hold.leaseUntil(believed, hold.leaseEnd());
            throw unknown;
        }
        if (!ours) {
            hold.lose("an extend found this owner's field gone from Redis");
            throw new LeaseLostException(loss(hold));
        }
        // The old lease ran out here while the call was on its way: the hold is lost, maybe told so already, and
        // Redis must not keep the new lease for nobody.
        hold.loseIfPastDeadline();
        if (hold.lostAt() != null) {
            giveBackLater(giveBack);
            throw new LeaseLostException(loss(hold));
        }
        long end = sent + TimeUnit.MILLISECONDS.toNanos(lease.millis());
        hold.leaseUntil(Math.min(renewalMayLeave, LeaseClock.deadline(sent, lease)), end);
    }

    /**
     * Ends one of the calling thread's holds, whatever Redis answers: a call that failed may have run,
     * and the thread's next call writes its count anyway. Only the last hold, or a refusal, ends the
     * hold itself. Throws {@link IllegalMonitorStateException} when the thread holds nothing or Redis
     * refused, and a {@link LeaseLostException} when the thread's lease was lost (forgetting the hold).
     */
    public <R> R release(Unlock<R> unlock) {
        int held = releasing();
        if (held == 0) {
            unlock.notHeld();
            throw notHeld();
        }
        R reply = null;
        boolean refused = false;
        try {
            reply = unlock.run(held);
            refused = unlock.refused(reply);
        } finally {
            released(held == 1 || refused);
        }
        if (refused) {
            throw notHeld();
        }
        return reply;
    }

    /**
     * Before an unlock script runs: throws, and forgets the hold, if the calling thread's lease was
     * lost; otherwise a renewal that finds the field gone meanwhile is the unlock's doing, not a loss.
     * Returns the calling thread's holds before the unlock (0 when it has none).
     */
    private int releasing() {
        long thread = Caller.currentId();
        Hold hold = byThread.get(thread);
        if (hold == null) {
            return 0;
        }
        // Past its deadline the hold is lost, whether or not the clock has said so yet: isHeld() already says so.
        hold.loseIfPastDeadline();
        if (hold.lostAt() != null) {
            byThread.remove(thread);
            throw new LeaseLostException(loss(hold));
        }
        hold.releasing(true);
        return hold.depth();
    }

    /** After the unlock script: {@code lastHold} ends the hold (no more renewals), otherwise it goes on. */
    private void released(boolean lastHold) {
        long thread = Caller.currentId();
        Hold hold = lastHold ? byThread.remove(thread) : byThread.get(thread);
        if (hold != null) {
            hold.released(lastHold);
        }
    }

    private LeaseLoss loss(Hold hold) {
        return new LeaseLoss(lockName, hold.owner().id(), hold.lostAt(), hold.lossReason());
    }

    private static IllegalStateException closed() {
        return new IllegalStateException("the client is closed: nothing would renew or watch this hold");
    }

    private IllegalMonitorStateException notHeld() {
        return new IllegalMonitorStateException("lock '" + lockName + "' is not held by this thread");
    }

    /** {@code hold} was lost: undo it in Redis if this lock must, and tell its holder. */
    private void lost(Hold hold) {
        Caller owner = hold.owner();
        if (!owner.isAlive()) {
            // Nobody is left to unlock it, or to hear the news from an unlock.
            byThread.remove(owner.id(), hold);
        }
        if (undo != null) {
            String ownerName = ownerOf.apply(owner.id());
            giveBacks.later(lockName, ownerName, () -> undo.accept(ownerName));
        }
        log.warn("lock '{}': thread {} lost its hold: {}", lockName, owner.name(), hold.lossReason());
        clock.tell(onLost, loss(hold));
    }
}
