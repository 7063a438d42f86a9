package dev.lockstep.multi.internal;

import dev.lockstep.internal.Lease;
import dev.lockstep.internal.Patience;
import dev.lockstep.v5.internal.Subscriber;

/**
 * A {@link NameGroupLock}'s tries for every name while its waiter sleeps on one name's channel,
 * {@code watching}. A try stopped by another name moves the waiter there ({@link StoppedElsewhere}).
 */
final class GroupTries implements Subscriber.Attempt {

    private final NameGroupLock lock;
    private final String watching;
    private final Lease lease;
    private final Patience patience;
    /** The answer of the try that moved the waiter here, standing for its next try; null once used. */
    private Long known;

    GroupTries(NameGroupLock lock, String watching, Long known, Lease lease, Patience patience) {
        this.lock = lock;
        this.watching = watching;
        this.known = known;
        this.lease = lease;
        this.patience = patience;
    }

    /** The name whose channel the waiter sleeps on. */
    String watching() {
        return watching;
    }

    @Override
    public Long tryOnce() {
        if (known != null) {
            Long answer = known;
            known = null;
            return answer;
        }
        // A failed attempt reports an unknown holder lease: the waiter sleeps one retry interval.
        Long holderLease = lock.tryOnce(lease, patience);
        String blocker = lock.blocker();
        if (holderLease != null && blocker != null && !blocker.equals(watching)) {
            throw new StoppedElsewhere(blocker, holderLease);
        }
        return holderLease;
    }

    /** The try was stopped by {@code name}, whose holder's lease runs {@code holderLease} ms more, not by the name the waiter sleeps on. */
    static final class StoppedElsewhere extends RuntimeException {

        private final String name;
        private final long holderLease;

        StoppedElsewhere(String name, long holderLease) {
            super(null, null, false, false);
            this.name = name;
            this.holderLease = holderLease;
        }

        String name() {
            return name;
        }

        long holderLease() {
            return holderLease;
        }
    }
}
