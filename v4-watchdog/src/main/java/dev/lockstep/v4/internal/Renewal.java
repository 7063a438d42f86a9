package dev.lockstep.v4.internal;

import dev.lockstep.LockObserver;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One hold's renewal, run by the {@link Renewer} every third of its lease. Renewed: the deadline
 * moves on. The owner's field gone: the hold is lost at once. Redis out of reach: it keeps trying,
 * and the {@link LeaseClock} decides when the lease is gone.
 */
final class Renewal implements Runnable {

    private static final Logger log = LoggerFactory.getLogger(Renewal.class);

    private final Hold hold;
    private final BooleanSupplier renew;
    private final long leaseNanos;
    private final LockObserver observer;
    /** Renewals fail since the last one that went through: logged at WARN once, not per attempt. */
    private volatile boolean failing;

    /**
     * Renews {@code hold} for {@code leaseNanos} with {@code renew} (true: renewed, false: no longer
     * ours, an exception: unknown), telling {@code observer} of each failure.
     */
    Renewal(Hold hold, BooleanSupplier renew, long leaseNanos, LockObserver observer) {
        this.hold = hold;
        this.renew = renew;
        this.leaseNanos = leaseNanos;
        this.observer = observer;
    }

    @Override
    public void run() {
        if (!hold.owner().isAlive()) {
            // Nobody is left to unlock it: renewing would hold the lock until the client closes.
            hold.lose("its thread ended without unlocking");
            return;
        }
        hold.renew(this::send);
    }

    private void send() {
        long sent = System.nanoTime();
        try {
            if (renew.getAsBoolean()) {
                hold.renewed(sent, leaseNanos);
                if (failing) {
                    failing = false;
                    log.info("lock '{}': renewals for thread {} go through again", hold.lockName(), hold.owner().name());
                }
            } else if (!hold.releasing()) {
                hold.lose("Redis no longer had this owner's field at renewal");
            }
        } catch (RuntimeException e) {
            hold.renewalUnknown(LeaseClock.deadline(sent, leaseNanos));
            observer.renewalFailed(hold.lockName(), e);
            long leftMillis = (hold.deadline() - System.nanoTime()) / 1_000_000;
            if (!failing) {
                failing = true;
                log.warn("lock '{}': renewal for thread {} failed ({}); retrying while {} ms of lease are left",
                        hold.lockName(), hold.owner().name(), e.getMessage(), leftMillis);
            } else {
                log.debug("lock '{}': renewal failed again, {} ms of lease left", hold.lockName(), leftMillis, e);
            }
        }
    }
}
