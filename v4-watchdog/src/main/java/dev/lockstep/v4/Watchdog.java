package dev.lockstep.v4;

import dev.lockstep.Lease;
import java.time.Instant;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a client's held leases alive and notices when one is lost. One per client, for all its
 * locks: a renewer thread that calls Redis every third of a lease, and a clock thread that
 * watches each hold's local deadline. They are apart so that a renewal stuck on a dead
 * connection cannot delay the news that the lease has run out.
 *
 * <p>A hold's deadline is the send time of its last successful renewal (or acquisition) plus
 * the lease, minus a safety margin. Redis set the expiry after that send, so the key lives at
 * least until send + lease: the holder learns of the loss before anyone else can take the lock.
 */
public final class Watchdog implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Watchdog.class);

    private final ScheduledExecutorService renewer;
    private final ScheduledExecutorService clock;

    /** A watchdog whose threads carry {@code clientName} in their names. */
    public Watchdog(String clientName) {
        this.renewer = daemon("lockstep-watchdog-" + clientName);
        this.clock = daemon("lockstep-lease-clock-" + clientName);
    }

    /**
     * Starts watching a hold taken by a request sent at {@code sentNanos} ({@link System#nanoTime()})
     * for {@code lease}. A default lease is renewed with {@code renew} (true: still ours); an explicit
     * one only runs out. {@code onLost} hears once, with the time, when the hold is lost.
     */
    public Hold watch(long sentNanos, Lease lease, BooleanSupplier renew, Consumer<Instant> onLost) {
        Hold hold = new Hold(lease.millis(), onLost);
        hold.extend(sentNanos);
        if (!lease.explicit()) {
            long every = Math.max(1, lease.millis() / 3);
            hold.renewal = renewer.scheduleWithFixedDelay(() -> hold.renew(renew), every, every, TimeUnit.MILLISECONDS);
        }
        hold.checkAt(hold.deadline);
        return hold;
    }

    /** Stops all renewals and checks; held leases simply run out, as after a crash. */
    @Override
    public void close() {
        renewer.shutdownNow();
        clock.shutdownNow();
    }

    /** One watched hold of one lock by one thread. */
    public final class Hold {

        private final long leaseNanos;
        private final long marginNanos;
        private final Consumer<Instant> onLost;
        private volatile long deadline;
        private volatile boolean ended;
        private volatile Instant lostAt;
        private volatile ScheduledFuture<?> renewal;
        private volatile ScheduledFuture<?> check;

        private Hold(long leaseMillis, Consumer<Instant> onLost) {
            this.leaseNanos = TimeUnit.MILLISECONDS.toNanos(leaseMillis);
            // Clock-rate drift and the clock thread's own scheduling delay: the holder must hear first.
            this.marginNanos = leaseNanos / 20 + TimeUnit.MILLISECONDS.toNanos(2);
            this.onLost = onLost;
        }

        /** True until the lease is lost or the hold {@link #stop() stopped}. */
        public boolean isHeld() {
            return !ended && System.nanoTime() < deadline;
        }

        /** When the lease was lost, or null while it is held. */
        public Instant lostAt() {
            return lostAt;
        }

        /** A re-entry reset the lease in Redis from a request sent at {@code sentNanos}. */
        public void extend(long sentNanos) {
            deadline = sentNanos + leaseNanos - marginNanos;
        }

        /** The last unlock: no more renewals, no loss to report. */
        public void stop() {
            if (end()) {
                cancelTasks();
            }
        }

        private void renew(BooleanSupplier renew) {
            long sent = System.nanoTime();
            try {
                if (renew.getAsBoolean()) {
                    deadline = Math.max(deadline, sent + leaseNanos - marginNanos);
                } else {
                    lose();
                }
            } catch (RuntimeException e) {
                // Unreachable Redis: keep trying; the clock decides when the lease is gone.
                log.debug("renewal failed, {} ms of lease left", (deadline - System.nanoTime()) / 1_000_000, e);
            }
        }

        private void checkAt(long when) {
            check = clock.schedule(() -> {
                if (ended) {
                    return;
                }
                if (System.nanoTime() >= deadline) {
                    lose();
                } else {
                    checkAt(deadline);
                }
            }, Math.max(0, when - System.nanoTime()), TimeUnit.NANOSECONDS);
        }

        private void lose() {
            if (!end()) {
                return;
            }
            lostAt = Instant.now();
            cancelTasks();
            onLost.accept(lostAt);
        }

        /** Ends the hold once: true for the caller that ended it. */
        private synchronized boolean end() {
            if (ended) {
                return false;
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

    private static ScheduledExecutorService daemon(String name) {
        ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, runnable -> {
            Thread thread = Executors.defaultThreadFactory().newThread(runnable);
            thread.setName(name);
            thread.setDaemon(true);
            return thread;
        });
        executor.setRemoveOnCancelPolicy(true);
        return executor;
    }
}
