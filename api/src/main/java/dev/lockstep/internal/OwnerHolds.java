package dev.lockstep.internal;

import java.time.Instant;

/**
 * One owner's holds of one lock, as this client counts them (whatever Redis says): for an
 * operator's view of what a process holds.
 *
 * @param owner who holds: a thread's name, or a {@link dev.lockstep.LockHold}'s ("hold 3 of lock 'stock'")
 * @param since when its first hold was taken, by this client's clock
 * @param holds how many holds it has (each re-entry counts)
 */
public record OwnerHolds(String owner, Instant since, int holds) {

    /** The holds after one more re-entry. */
    OwnerHolds plusOne() {
        return new OwnerHolds(owner, since, holds + 1);
    }

    /** The holds after one unlock; the caller drops the record at the last. */
    OwnerHolds minusOne() {
        return new OwnerHolds(owner, since, holds - 1);
    }
}
