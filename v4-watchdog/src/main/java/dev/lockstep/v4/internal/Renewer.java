package dev.lockstep.v4.internal;

import dev.lockstep.internal.Daemons;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The renewal scheduler: one thread per client runs every renewing hold's {@link Renewal} every
 * third of its lease. It is apart from the {@link LeaseClock} so that a renewal stuck on a dead
 * connection cannot delay the news that a lease ran out. (A renewal stuck on one dead node does
 * delay the client's other renewals by up to a socket timeout; the defaults, a 30 s lease renewed
 * every 10 s, leave ample room for that.)
 */
final class Renewer implements AutoCloseable {

    private final ScheduledExecutorService thread;

    Renewer(String clientName) {
        this.thread = Daemons.ticking("lockstep-watchdog-" + clientName, Watchdog.TICK);
    }

    /** Runs {@code renewal} every third of {@code leaseMillis}, first a third from now; throws once closed. */
    ScheduledFuture<?> everyThirdOf(long leaseMillis, Runnable renewal) {
        long every = Math.max(1, leaseMillis / 3);
        return thread.scheduleWithFixedDelay(renewal, every, every, TimeUnit.MILLISECONDS);
    }

    /** Stops all renewals. */
    @Override
    public void close() {
        thread.shutdownNow();
    }
}
