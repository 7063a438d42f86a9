package dev.lockstep.testkit.model;

import dev.lockstep.DistLock;
import dev.lockstep.testkit.history.History.Kind;
import dev.lockstep.testkit.model.OwnerThreads.Hung;
import java.time.Duration;
import java.util.Optional;

/**
 * An owner's {@code extend(lease)}: set, its hold is a fixed lease from the call on, which runs out
 * unless extended again; refused for a bad lease with nothing sent, or for a hold the owner no
 * longer has; thrown with its outcome unknown, Redis keeps either lease, and the lock trusts the
 * shorter.
 */
final class Extend {

    /** Leases under this are refused at the call by every stage. */
    private static final long SHORTEST_LEASE_MILLIS = 10;

    private Extend() {
    }

    /** Plays an owner's {@code extend(millis)} and judges its outcome against the model. */
    static Optional<Violation> extend(RunContext run, Step step, String actor) {
        int c = step.client();
        int t = step.thread();
        ReferenceModel model = run.model();
        OwnerModel owner = model.owner(c, t, step.side());
        DistLock lock = run.lock(c, step.side());
        long sent = System.nanoTime();
        Object outcome = OwnerCalls.underFault(run, step, () -> {
            lock.extend(Duration.ofMillis(step.millis()));
            return true;
        });
        long now = System.nanoTime();
        if (outcome instanceof Hung hung) {
            return Optional.of(new Violation("hung", step + " did not return within " + hung.deadline().toMillis() + " ms"));
        }
        run.log().note(actor, Kind.NOTE, step + " -> " + OwnerCalls.describe(outcome));
        if (step.millis() < SHORTEST_LEASE_MILLIS) {
            if (!(outcome instanceof IllegalArgumentException)) {
                return Optional.of(new Violation("extend-bad-lease", step + " was not refused at the call: "
                        + OwnerCalls.describe(outcome)));
            }
            return model.settle(c, t, step.side(), run.holdCount(c, t, step.side()), false, now);
        }
        if (Boolean.TRUE.equals(outcome)) {
            if (!owner.mayHold() && !owner.beliefUnknown) {
                return Optional.of(new Violation("extend-accepted", step + " set a lease, but the model says the thread "
                        + "holds nothing"));
            }
            // The whole hold, re-entries too, now ends with this lease unless extended again.
            owner.fixedLeaseEnd = sent + Duration.ofMillis(step.millis()).toNanos();
            owner.mixedLease = false;
            return model.settle(c, t, step.side(), run.holdCount(c, t, step.side()), false, now);
        }
        if (outcome instanceof IllegalMonitorStateException refused) {
            boolean faulted = owner.shakenUntil > now || owner.exposedUntil > now;
            if (owner.surelyHolds() && !faulted && !owner.beliefUnknown && owner.fixedLeaseEnd == 0) {
                return Optional.of(new Violation("extend-refused", step + " was refused, but the model says the thread "
                        + "holds " + owner + ": " + refused.getMessage()));
            }
            if (owner.mayHold()) {
                model.lost(c, t, step.side(), now, model.leaseNanos());
            }
            return model.settle(c, t, step.side(), run.holdCount(c, t, step.side()), false, now);
        }
        // Unknown: Redis keeps the old lease or the new one, and the lock ends the hold by the shorter. How long the
        // hold lasts is then no promise either way: unchecked until the owner's next call settles it.
        if (owner.mayHold()) {
            owner.mixedLease = true;
            owner.beliefUnknown = true;
        }
        return Optional.empty();
    }
}
