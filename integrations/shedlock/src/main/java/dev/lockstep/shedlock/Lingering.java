package dev.lockstep.shedlock;

import dev.lockstep.LockHold;
import dev.lockstep.internal.Daemons;
import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Holds unlocked before their {@code lockAtLeastFor} ran out, kept referenced until it has and
 * then released. The reference matters: a hold nobody references is released by its cleaner at
 * the next garbage collection, which would free the job's lock early.
 */
final class Lingering {

    private static final Logger LOG = LoggerFactory.getLogger(Lingering.class);

    /** One daemon thread for the whole JVM: it only ever releases, once per early unlock. */
    private static final ScheduledExecutorService TIMER = Daemons.scheduler("lockstep-shedlock-lingering");

    private Lingering() {
    }

    /** Releases {@code hold} after {@code delay}, keeping it referenced until then. */
    static void releaseAfter(LockHold hold, Duration delay) {
        TIMER.schedule(() -> release(hold), delay.toNanos(), TimeUnit.NANOSECONDS);
    }

    private static void release(LockHold hold) {
        try {
            hold.release();
        } catch (IllegalMonitorStateException | IllegalStateException gone) {
            // Lost, or its client closed: either way its lease ends it within the margin.
            LOG.debug("lock '{}': no lingering release ({})", hold.lockName(), gone.getMessage());
        } catch (RuntimeException e) {
            LOG.warn("lock '{}': lingering release failed; its lease ends it", hold.lockName(), e);
        }
    }
}
