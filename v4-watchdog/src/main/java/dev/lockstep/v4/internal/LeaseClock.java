package dev.lockstep.v4.internal;

import dev.lockstep.LeaseLoss;
import dev.lockstep.internal.Daemons;
import dev.lockstep.internal.Lease;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The loss signal: when a hold stops being believed, and telling its holder.
 *
 * <p>A hold's deadline is the send time of its last successful renewal (or acquisition) plus the
 * lease, minus a safety margin. Redis set the expiry after that send, so the key lives at least
 * until send + lease: the holder learns of the loss before anyone else can take the lock.
 *
 * <p>One clock thread per client wakes at each hold's deadline. Losses are delivered on a thread
 * of their own, started only to deliver one, so that a slow listener cannot delay the client's
 * other deadlines.
 */
final class LeaseClock implements AutoCloseable {

    private final ScheduledExecutorService clock;
    private final ThreadPoolExecutor notifier;

    LeaseClock(String clientName) {
        this.clock = Daemons.ticking("lockstep-lease-clock-" + clientName, Watchdog.TICK);
        this.notifier = Daemons.onDemand("lockstep-lease-loss-" + clientName);
    }

    /** When a hold of {@code lease}, taken or renewed by a request sent at {@code sentNanos}, stops being believed. */
    static long deadline(long sentNanos, Lease lease) {
        return deadline(sentNanos, TimeUnit.MILLISECONDS.toNanos(lease.millis()));
    }

    /** As above, for a lease of {@code leaseNanos}. */
    static long deadline(long sentNanos, long leaseNanos) {
        // Clock-rate drift and the clock thread's own scheduling delay: the holder must hear first.
        long margin = leaseNanos / 20 + TimeUnit.MILLISECONDS.toNanos(2);
        return sentNanos + leaseNanos - margin;
    }

    /** Runs {@code check} on the clock thread at {@code nanoTime}; throws {@link RejectedExecutionException} once closed. */
    ScheduledFuture<?> at(long nanoTime, Runnable check) {
        return clock.schedule(check, Math.max(0, nanoTime - System.nanoTime()), TimeUnit.NANOSECONDS);
    }

    /** Hands {@code loss} to {@code listener} on the notifier thread; nobody listens once the client is closed. */
    void tell(Consumer<LeaseLoss> listener, LeaseLoss loss) {
        try {
            notifier.execute(() -> listener.accept(loss));
        } catch (RejectedExecutionException closedMeanwhile) {
            // The client closed: nobody is listening any more.
        }
    }

    /** Whether the client closed: no deadline is watched any more. */
    boolean closed() {
        return clock.isShutdown();
    }

    /** Stops the checks and the notices not yet delivered. */
    @Override
    public void close() {
        clock.shutdownNow();
        notifier.shutdownNow();
    }
}
