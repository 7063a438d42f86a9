package dev.lockstep.examples.inventory.load;

import dev.lockstep.Guarantee;
import dev.lockstep.examples.inventory.Stage;
import java.time.Duration;
import java.util.Set;

/** The three ways the load run treats the service, and which stages claim to survive each. */
enum Variant {
    /** Short work, the library's 30 s lease, no fault: any lock keeps orders apart. */
    PLAIN("plain", Duration.ofMillis(5), null, null, new Shape(1, 100, 1000, 8), new Shape(1, 40, 200, 4)),
    /** Each order works longer than the lease: only a renewed lease (stage 4 on) stays held. */
    WORK_OUTLASTS_LEASE("work outlasts the lease", Duration.ofMillis(1500), Duration.ofMillis(1000), null,
            new Shape(20, 5, 1000, 16), new Shape(4, 1, 16, 4)),
    /**
     * One instance is stopped (SIGSTOP) in the middle of an order, holding the lock, for three
     * leases, then resumed: only a write fenced by a token (stage 7) is refused.
     */
    PAUSED_INSTANCE("one instance paused mid-order", Duration.ofMillis(50), Duration.ofMillis(1000), Duration.ofMillis(3000),
            new Shape(1, 100, 1000, 8), new Shape(1, 30, 120, 4));

    final String title;
    final Duration work;
    final Duration lease;
    final Duration pause;
    final Shape full;
    final Shape quick;

    Variant(String title, Duration work, Duration lease, Duration pause, Shape full, Shape quick) {
        this.title = title;
        this.work = work;
        this.lease = lease;
        this.pause = pause;
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

    /** Whether a stage that claims {@code guarantees} claims to sell no unit twice under this variant. */
    boolean claimedBy(Stage stage, Set<Guarantee> guarantees) {
        return switch (this) {
            case PLAIN -> stage != Stage.NONE;
            case WORK_OUTLASTS_LEASE -> guarantees.contains(Guarantee.LEASE_RENEWAL);
            case PAUSED_INSTANCE -> guarantees.contains(Guarantee.FENCED);
        };
    }
}
