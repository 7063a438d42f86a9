package dev.lockstep.shedlock;

import dev.lockstep.LockException;
import dev.lockstep.LockHold;
import java.time.Duration;
import java.util.Optional;
import net.javacrumbs.shedlock.core.AbstractSimpleLock;
import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A job's lock as ShedLock sees it: one {@link LockHold}. ShedLock's base class makes each
 * instance good for one {@code unlock} or {@code extend}; an extension hands the hold on to a new instance.
 */
final class HeldLock extends AbstractSimpleLock {

    private static final Logger LOG = LoggerFactory.getLogger(HeldLock.class);

    /** How much longer than {@code lockAtLeastFor} an early-unlocked lock's lease runs, as a fallback. */
    static final Duration RELEASE_MARGIN = Duration.ofMillis(250);

    private final LockHold hold;

    HeldLock(LockConfiguration configuration, LockHold hold) {
        super(configuration);
        this.hold = hold;
    }

    /**
     * Releases now if {@code lockAtLeastFor} is over; otherwise the lock stays until it is, and
     * {@link Lingering} releases it then. Never throws, as ShedLock's Redis providers do not: its
     * executor unlocks in a {@code finally}, where an exception would replace the job's own. A lock
     * that ran out ({@code lockAtMostFor}) and may be another node's now, or a Redis out of reach,
     * is logged, and the lease ends whatever is left.
     */
    @Override
    protected void doUnlock() {
        try {
            release();
        } catch (IllegalMonitorStateException gone) {
            LOG.warn("lock '{}': the run outlived its lock ({}); nothing released, another node may hold it now",
                    hold.lockName(), gone.getMessage());
        } catch (LockException unreachable) {
            LOG.warn("lock '{}': not released ({}); lockAtMostFor ends it", hold.lockName(), unreachable.getMessage());
        }
    }

    private void release() {
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
            hold.extend(LockstepLockProvider.atLeastShortest(newConfiguration.getLockAtMostFor()));
            return Optional.of(new HeldLock(newConfiguration, hold));
        } catch (IllegalMonitorStateException released) {
            // Lost, released, or run out in Redis: ShedLock's contract answers that with empty.
            return Optional.empty();
        }
    }
}
