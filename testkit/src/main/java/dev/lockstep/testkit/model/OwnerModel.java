package dev.lockstep.testkit.model;

import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * What the {@link ReferenceModel} knows of one owner (a client's thread) on one side of the lock:
 * the hold counts it may have, as a set, because a call that threw may or may not have happened.
 */
final class OwnerModel {

    /** Every hold count the owner may have now; one value once a successful call settled it. */
    private final TreeSet<Integer> possible = new TreeSet<>(Set.of(0));
    /** When the current hold was granted (nanoTime), to tell a late loss signal of an older hold from a new one. */
    long grantedAt;
    /** Until when (nanoTime) a fault on this owner's client may still take the hold away unannounced. */
    long shakenUntil;
    /**
     * Until when (nanoTime) a fault on this owner's own call may still cost it its hold: renewal
     * replies were lost too, so the lock may rightly declare the hold lost.
     */
    long exposedUntil;
    /** The owner's last lock call, when it was refused while its wire was faulty: Redis may have granted it. */
    Step refusedUnderFault;
    /** When (nanoTime) the owner last lost its holds without a call of its own (forced, stalled, closed). */
    long lostAt;
    /** Whether the last loss ({@link #lostAt}) is one the lock itself signalled, rather than one the model inferred. */
    boolean lossSignalled;
    /**
     * Whether the owner's last unlock threw: the lock may have ended the hold (Redis then keeps a count
     * that must run out within a lease) or kept it.
     */
    boolean unlockThrew;
    /** Whether a lock call of this owner is under way in the background: it may be granted any moment. */
    boolean inFlight;
    /** When a fixed-lease hold ends (nanoTime), 0 for a watchdog hold or none. */
    long fixedLeaseEnd;
    /**
     * Whether a fixed-lease hold was re-entered with the watchdog's lease: how long the mix lasts is
     * not a promise the API makes, so the hold is left unchecked until its last unlock.
     */
    boolean mixedLease;
    /** Whether the lock may not know yet that the hold ended (a fixed lease ran out): its next call tells. */
    boolean beliefUnknown;
    /**
     * The latest time (nanoTime) an explicit lease may keep the hold in Redis, 0 when it has none: a
     * lost hold's field may stay until then, and a key may not outlive it while only such holds are left.
     */
    long leaseEndBound;

    /** The one count the owner has, or -1 while it is uncertain. */
    int settled() {
        return possible.size() == 1 && !inFlight ? possible.first() : -1;
    }

    /** Whether the owner may hold the lock. */
    boolean mayHold() {
        return inFlight || possible.last() > 0;
    }

    /** Whether the owner surely holds the lock. */
    boolean surelyHolds() {
        return possible.first() > 0;
    }

    /** Whether {@code count} is one of the possibilities. */
    boolean allows(int count) {
        return possible.contains(count);
    }

    /** A call that added one hold returned: every possibility moves up. */
    void granted(long now) {
        shift(1);
        grantedAt = now;
    }

    /** An unlock that ends one hold returned: every possibility moves down. */
    void released() {
        shift(-1);
    }

    /**
     * Lock calls that threw since the owner last held nothing: Redis may count each once more than
     * the owner does, until its last unlock ({@code Guarantee.RETRY_SAFE}: "the grant it left behind
     * ends with the caller's last unlock").
     */
    int unheardGrants;

    /** A lock call threw: Redis may or may not have granted it, so both counts stay possible. */
    void maybeGranted() {
        unheardGrants++;
        TreeSet<Integer> moved = new TreeSet<>();
        possible.forEach(p -> moved.add(p + 1));
        possible.addAll(moved);
    }

    /** An unlock threw: the hold may have ended ({@code DistLock.unlock}: "the lease still ends the hold"), or not. */
    void maybeReleased() {
        TreeSet<Integer> moved = new TreeSet<>();
        possible.forEach(p -> moved.add(Math.max(0, p - 1)));
        possible.addAll(moved);
        possible.add(0);
        unlockThrew = true;
    }

    /** The owner surely holds {@code count}: the lock said so after a successful call, or the hold is gone. */
    void settle(int count) {
        possible.clear();
        possible.add(count);
        unlockThrew = false;
        if (count == 0) {
            unheardGrants = 0;
            fixedLeaseEnd = 0;
            leaseEndBound = 0;
            mixedLease = false;
        }
    }

    private void shift(int delta) {
        TreeSet<Integer> moved = possible.stream().map(p -> Math.max(0, p + delta))
                .collect(Collectors.toCollection(TreeSet::new));
        possible.clear();
        possible.addAll(moved);
    }

    @Override
    public String toString() {
        return possible.size() == 1 ? possible.first().toString() : possible.toString();
    }
}
