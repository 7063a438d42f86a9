package dev.lockstep.examples.inventory.load;

import dev.lockstep.Guarantee;
import dev.lockstep.examples.inventory.Stage;
import java.time.Duration;
import java.util.Set;

/** The four ways the load run treats the service, and which stages claim to survive each. */
enum Variant {
    /** Short work, the library's 30 s lease, no fault: any lock keeps orders apart. */
    PLAIN("plain", Duration.ofMillis(5), null, null, false, new Shape(1, 100, 1000, 8), new Shape(1, 40, 200, 4)),
    /** Each order works longer than the lease: only a renewed lease (stage 4 on) stays held. */
    WORK_OUTLASTS_LEASE("work outlasts the lease", Duration.ofMillis(1500), Duration.ofMillis(1000), null, false,
            new Shape(20, 5, 1000, 16), new Shape(4, 1, 16, 4)),
    /**
     * One instance is stopped (SIGSTOP) in the middle of an order, holding the lock, for three
     * leases, then resumed: only a write fenced by a token (stage 7) is refused.
     */
    PAUSED_INSTANCE("one instance paused mid-order", Duration.ofMillis(50), Duration.ofMillis(1000), Duration.ofMillis(3000),
            false, new Shape(1, 100, 1000, 8), new Shape(1, 30, 120, 4)),
    /**
     * One instance is stopped in the middle of an order, holding the lock, and woken in the gap
     * between the other instance's read and write of its next order: only a fence that moves on the
     * read (stage 7) refuses the woken write. Each order works 250 ms, long enough for the run to
     * stop the other instance inside that gap.
     */
    READ_GAP("paused, woken in a read gap", Duration.ofMillis(250), Duration.ofMillis(1000), null,
            true, new Shape(1, 40, 400, 8), new Shape(1, 24, 48, 2));

    final String title;
    final Duration work;
    final Duration lease;
    /** How long instance A is stopped mid-order; null when it is not stopped for a fixed time. */
    final Duration pause;
    /** Whether instance A, stopped mid-order, is woken in the gap between B's read and B's write. */
    final boolean wakesInReadGap;
    final Shape full;
    final Shape quick;

    Variant(String title, Duration work, Duration lease, Duration pause, boolean wakesInReadGap, Shape full, Shape quick) {
        this.title = title;
        this.work = work;
        this.lease = lease;
        this.pause = pause;
        this.wakesInReadGap = wakesInReadGap;
        this.full = full;
        this.quick = quick;
    }

    /**
     * How much load a run puts on the service.
     *
     * @param products           how many products the orders spread over
     * @param stock              each product's stock at the start
     * @param orders             orders of one unit each, half to each instance
     * @param workersPerInstance how many orders each instance is sent at once
     */
    record Shape(int products, int stock, int orders, int workersPerInstance) {

        /** The stock of all products at the start. */
        long totalStock() {
            return (long) products * stock;
        }
    }

    /** Whether the run stops instance A: it then runs in a JVM of its own, where a stop is a real SIGSTOP. */
    boolean stopsAnInstance() {
        return pause != null || wakesInReadGap;
    }

    /** Whether a stage that claims {@code guarantees} claims to sell no unit twice under this variant. */
    boolean claimedBy(Stage stage, Set<Guarantee> guarantees) {
        return switch (this) {
            case PLAIN -> stage != Stage.NONE;
            case WORK_OUTLASTS_LEASE -> guarantees.contains(Guarantee.LEASE_RENEWAL);
            case PAUSED_INSTANCE, READ_GAP -> guarantees.contains(Guarantee.FENCED);
        };
    }
}
