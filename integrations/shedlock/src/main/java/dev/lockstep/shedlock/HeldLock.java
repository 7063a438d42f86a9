package dev.lockstep.shedlock;

import dev.lockstep.LockHold;
import java.time.Duration;
import java.util.Optional;
import net.javacrumbs.shedlock.core.AbstractSimpleLock;
import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;

/**
 * A job's lock as ShedLock sees it: one {@link LockHold}. ShedLock's base class makes each
 * instance good for one {@code unlock} or {@code extend}; an extension hands the hold on to a new instance.
 */
final class HeldLock extends AbstractSimpleLock {

    /** How much longer than {@code lockAtLeastFor} an early-unlocked lock's lease runs, as a fallback. */
    static final Duration RELEASE_MARGIN = Duration.ofMillis(250);

    private final LockHold hold;

    HeldLock(LockConfiguration configuration, LockHold hold) {
        super(configuration);
        this.hold = hold;
    }

    /**
     * Releases now if {@code lockAtLeastFor} is over; otherwise the lock stays until it is, and
     * {@link Lingering} releases it then.
     */
    @Override
    protected void doUnlock() {
        Duration left = Duration.between(ClockProvider.now(), lockConfiguration.getLockAtLeastUntil());
        if (left.isNegative() || left.isZero()) {
            hold.release();
            return;
        }
        // The lease outlasts the planned release by a margin, so the release, not the lease running out
        // (which this client would report as a lost hold), ends it; a node that dies meanwhile keeps the
        // lock for at most that margin more.
        hold.extend(left.plus(RELEASE_MARGIN));
        Lingering.releaseAfter(hold, left);
    }

    /** A new lock on the same hold with {@code lockAtMostFor} from now, or empty when the hold is gone. */
    @Override
    protected Optional<SimpleLock> doExtend(LockConfiguration newConfiguration) {
        try {
            hold.extend(newConfiguration.getLockAtMostFor());
            return Optional.of(new HeldLock(newConfiguration, hold));
        } catch (IllegalMonitorStateException released) {
            // Lost, released, or run out in Redis: ShedLock's contract answers that with empty.
            return Optional.empty();
        }
    }
}
