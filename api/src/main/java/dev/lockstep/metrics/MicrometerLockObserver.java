package dev.lockstep.metrics;

import dev.lockstep.LeaseLoss;
import dev.lockstep.LockObserver;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Lock events as Micrometer meters: pass it to {@code LockOptions.withObserver}. Needs
 * {@code io.micrometer:micrometer-core} on the class path (an optional dependency of Lockstep).
 * No meter is tagged with a lock name: a service with a lock per order id would make a meter per
 * order.
 *
 * <ul>
 * <li>{@code lockstep.lock.acquire} (timer, tag {@code outcome}: {@code acquired} or
 *     {@code timed_out}): how long each {@code lock}/{@code tryLock} call took; its counts are the
 *     acquisitions and the timeouts.</li>
 * <li>{@code lockstep.lock.holds.active} (gauge): holds taken and not yet released.</li>
 * <li>{@code lockstep.lock.lease.lost} and {@code lockstep.lock.renewal.failed} (counters).</li>
 * <li>{@code lockstep.lock.subscriptions} (gauge): release channels this client listens on.</li>
 * </ul>
 */
public final class MicrometerLockObserver implements LockObserver {

    private final Timer acquired;
    private final Timer timedOut;
    private final Counter leasesLost;
    private final Counter renewalsFailed;
    private final AtomicLong activeHolds;
    private final AtomicLong subscriptions;

    /** Registers the meters in {@code registry}. */
    public MicrometerLockObserver(MeterRegistry registry) {
        acquired = Timer.builder("lockstep.lock.acquire").tag("outcome", "acquired")
                .description("lock and tryLock calls that took the lock, and how long they took").register(registry);
        timedOut = Timer.builder("lockstep.lock.acquire").tag("outcome", "timed_out")
                .description("tryLock calls that gave up, and how long they waited").register(registry);
        leasesLost = Counter.builder("lockstep.lock.lease.lost")
                .description("holds lost before their unlock").register(registry);
        renewalsFailed = Counter.builder("lockstep.lock.renewal.failed")
                .description("lease renewals that could not reach Redis").register(registry);
        activeHolds = registry.gauge("lockstep.lock.holds.active", new AtomicLong());
        subscriptions = registry.gauge("lockstep.lock.subscriptions", new AtomicLong());
    }

    @Override
    public void acquired(String name, long waitedNanos) {
        acquired.record(waitedNanos, TimeUnit.NANOSECONDS);
        activeHolds.incrementAndGet();
    }

    @Override
    public void timedOut(String name, long waitedNanos) {
        timedOut.record(waitedNanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void released(String name) {
        activeHolds.decrementAndGet();
    }

    @Override
    public void leaseLost(LeaseLoss loss) {
        leasesLost.increment();
    }

    @Override
    public void renewalFailed(String name, Throwable cause) {
        renewalsFailed.increment();
    }

    @Override
    public void subscription(String channel, boolean subscribed) {
        if (subscribed) {
            subscriptions.incrementAndGet();
        } else {
            subscriptions.decrementAndGet();
        }
    }
}
