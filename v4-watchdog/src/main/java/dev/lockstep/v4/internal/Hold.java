package dev.lockstep.v4.internal;

import dev.lockstep.internal.Caller;
import dev.lockstep.internal.Lease;
import java.time.Instant;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * One thread's hold of one lock, as this client believes it: how many times the thread took it,
 * until when the lease is surely still in Redis, and whether the hold ended or was lost. Lost
 * means: the deadline passed with no renewal, or a call found the owner's field gone.
 */
final class Hold {

    private final String lockName;
    private final Caller owner;
    private final LeaseClock clock;
    private final Consumer<Hold> onLost;
    /** Touched by the owner thread only. */
    private int depth;
    private volatile long deadline;
    /** Until when Redis was last told to keep the lease: the deadline without the holder's margin. */
    private volatile long leaseEnd;
    private volatile boolean ended;
    private volatile boolean releasing;
    private volatile Instant lostAt;
    private volatile String lossReason;
    private volatile ScheduledFuture<?> renewal;
    private volatile ScheduledFuture<?> check;
    /** Held while a renewal is sent and answered, so that the owner's own lease is never sent beside one. */
    private final Object renewalInFlight = new Object();
    /** The deadline a renewal whose outcome is unknown may have left in Redis, or {@link Long#MAX_VALUE}. */
    private volatile long unknownRenewal = Long.MAX_VALUE;

    /** A hold of {@code lockName} by {@code owner}, watched by {@code clock}; {@code onLost} hears of its loss, once. */
    Hold(String lockName, Caller owner, LeaseClock clock, Consumer<Hold> onLost) {
        this.lockName = lockName;
        this.owner = owner;
        this.clock = clock;
        this.onLost = onLost;
    }

    /** The lock script set {@code lease} in Redis from a request sent at {@code sentNanos}: one more hold. */
    void acquired(long sentNanos, Lease lease) {
        depth++;
        // A re-entry never shortens the lease (the scripts keep the longer one), so nor does it the deadline.
        extendTo(sentNanos, TimeUnit.MILLISECONDS.toNanos(lease.millis()));
        if (check == null) {
            checkAt(deadline);
        }
    }

    /** Whether the hold's lease is renewed: a default lease, once taken, is from then on. */
    boolean renewing() {
        return renewal != null;
    }

    /** From now on {@code task} renews the lease; it is cancelled when the hold ends. */
    void renewedBy(ScheduledFuture<?> task) {
        renewal = task;
    }

    /** A renewal or acquisition sent at {@code sentNanos} set a lease of {@code leaseNanos}: later, unless it was already. */
    private void extendTo(long sentNanos, long leaseNanos) {
        deadline = Math.max(deadline, LeaseClock.deadline(sentNanos, leaseNanos));
        leaseEnd = Math.max(leaseEnd, sentNanos + leaseNanos);
    }

    /**
     * Runs {@code send}, one renewal, unless the owner set the lease itself since ({@link #stopRenewing}):
     * never beside the owner's own lease, whose request must be the last Redis sees.
     */
    void renew(Runnable send) {
        synchronized (renewalInFlight) {
            if (renewal != null) {
                send.run();
            }
        }
    }

    /** A renewal sent at {@code sentNanos} set a lease of {@code leaseNanos}: the deadline moves on. */
    void renewed(long sentNanos, long leaseNanos) {
        unknownRenewal = Long.MAX_VALUE;
        extendTo(sentNanos, leaseNanos);
    }

    /** A renewal that would have set the lease to run until {@code nanoTime} failed: Redis may or may not have run it. */
    void renewalUnknown(long nanoTime) {
        unknownRenewal = Math.min(unknownRenewal, nanoTime);
    }

    /**
     * The owner sets the lease from now on: nothing renews it. Waits for a renewal in flight, whose
     * lease would otherwise land after the owner's. Returns until when a renewal whose outcome is
     * unknown may leave the lease in Redis (it may still land later), or {@link Long#MAX_VALUE}.
     */
    long stopRenewing() {
        ScheduledFuture<?> task;
        synchronized (renewalInFlight) {
            task = renewal;
            renewal = null;
        }
        if (task != null) {
            task.cancel(false);
        }
        return unknownRenewal;
    }

    /**
     * The owner set the lease to run until {@code end} in Redis, and believes it until {@code nanoTime}: the
     * deadline follows, also when it is earlier.
     */
    void leaseUntil(long nanoTime, long end) {
        deadline = nanoTime;
        leaseEnd = end;
        ScheduledFuture<?> earlier = check;
        checkAt(nanoTime);
        if (earlier != null) {
            earlier.cancel(false);
        }
    }

    /** Whether the hold lasts: until its last unlock or the moment its lease is lost. */
    boolean isHeld() {
        return !ended && System.nanoTime() < deadline;
    }

    /** How many holds the owner has (acquisitions minus unlocks). */
    int depth() {
        return depth;
    }

    /** Until when the lease is surely in Redis, in {@link System#nanoTime()}. */
    long deadline() {
        return deadline;
    }

    /** Until when Redis was last told to keep the lease, in {@link System#nanoTime()}. */
    long leaseEnd() {
        return leaseEnd;
    }

    /** The thread that holds it. */
    Caller owner() {
        return owner;
    }

    /** The lock held. */
    String lockName() {
        return lockName;
    }

    /** When the hold was lost, or null. */
    Instant lostAt() {
        return lostAt;
    }

    /** Why the hold was lost, or null. */
    String lossReason() {
        return lossReason;
    }

    /** Whether an unlock script is running for it: a renewal that finds the field gone then is no loss. */
    boolean releasing() {
        return releasing;
    }

    /** An unlock script starts ({@code true}) or ended ({@code false}). */
    void releasing(boolean running) {
        releasing = running;
    }

    /** An unlock ended one hold; {@code last} ends the hold itself, and its renewal. */
    void released(boolean last) {
        releasing = false;
        depth--;
        if (last && end(null)) {
            cancelTasks();
        }
    }

    /** Past its deadline the hold is lost, whether or not the clock has said so yet. */
    void loseIfPastDeadline() {
        if (!ended && System.nanoTime() >= deadline) {
            lose(expiryReason());
        }
    }

    /** The hold is lost for {@code reason}: no more renewals, and {@code onLost} hears of it unless it ended before. */
    void lose(String reason) {
        if (end(reason)) {
            cancelTasks();
            onLost.accept(this);
        }
    }

    /** The hold's lease is not renewed after all (the client closed under it): it ends quietly. */
    void abandon() {
        if (end(null)) {
            cancelTasks();
        }
    }

    private void checkAt(long when) {
        check = clock.at(when, () -> {
            if (ended) {
                return;
            }
            if (System.nanoTime() >= deadline) {
                lose(expiryReason());
            } else {
                checkAt(deadline);
            }
        });
    }

    private String expiryReason() {
        return renewal == null ? "its explicit lease ran out" : "no renewal reached Redis within the lease";
    }

    /**
     * Ends the hold once, lost for {@code reason} unless it is null: true for the caller that
     * ended it. A caller that comes second sees the first one's loss.
     */
    private synchronized boolean end(String reason) {
        if (ended) {
            return false;
        }
        if (reason != null) {
            lossReason = reason;
            lostAt = Instant.now();
        }
        ended = true;
        return true;
    }

    private void cancelTasks() {
        for (ScheduledFuture<?> task : new ScheduledFuture<?>[] {renewal, check}) {
            if (task != null) {
                task.cancel(false);
            }
        }
    }
}
