package dev.lockstep.testkit.model;

import dev.lockstep.testkit.history.History.Kind;
import dev.lockstep.testkit.model.OwnerThreads.Hung;
import dev.lockstep.testkit.model.Step.Side;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * An owner's {@code extend(lease)}, a thread's ({@code DistLock.extend}) or a handle's
 * ({@code LockHold.extend}, from the handle's own thread): set, its hold is a fixed lease from the
 * call on, longer or shorter than before, which runs out unless extended again; refused for a bad
 * lease or a closed client with nothing sent and nothing changed, or for a hold the owner no longer
 * has; thrown with its outcome unknown, Redis keeps either lease, and the lock trusts the shorter.
 */
final class Extend {

    /** Leases under this are refused at the call by every stage. */
    static final long SHORTEST_LEASE_MILLIS = 10;

    private Extend() {
    }

    /** Plays an owner's {@code extend(millis)} and judges its outcome against the model. */
    static Optional<Violation> extend(RunContext run, Step step, String actor) {
        int c = step.client();
        int t = step.thread();
        HoldSlots.Held held = Step.isHandle(t) ? run.held(c, t) : null;
        if (Step.isHandle(t) && held == null) {
            run.log().note(actor, Kind.NOTE, step + " -> no handle in the slot: nothing to call");
            return Optional.empty();
        }
        Side side = held != null ? held.side : step.side();
        ReferenceModel model = run.model();
        OwnerModel owner = model.owner(c, t, side);
        Duration lease = Duration.ofMillis(step.millis());
        Callable<Object> body = held != null ? () -> {
            held.hold.extend(lease);
            return true;
        } : () -> {
            run.lock(c, side).extend(lease);
            return true;
        };
        int before = belief(run, c, t, side);
        long sent = System.nanoTime();
        // Nothing else may change the owner's belief while a refused call runs: no fault, no lease about to end.
        long leaseEnd = held != null ? held.leaseEnd : owner.fixedLeaseEnd;
        boolean steady = step.fault() == Step.WireFault.NONE && owner.shakenUntil <= sent && owner.exposedUntil <= sent
                && (leaseEnd == 0 || Math.abs(leaseEnd - sent) > ModelSetup.SLACK.toNanos());
        Object outcome = OwnerCalls.underFault(run, step, body);
        long now = System.nanoTime();
        if (outcome instanceof Hung hung) {
            return Optional.of(new Violation("hung", step + " did not return within " + hung.deadline().toMillis() + " ms"));
        }
        run.log().note(actor, Kind.NOTE, step + " -> " + OwnerCalls.describe(outcome));
        boolean closedClient = held != null && held.clientClosed;
        if (step.millis() < SHORTEST_LEASE_MILLIS || closedClient) {
            return refusedAtTheCall(run, step, outcome, steady ? before : -2, closedClient, owner, sent);
        }
        if (Boolean.TRUE.equals(outcome)) {
            if (!owner.mayHold() && !owner.beliefUnknown) {
                return Optional.of(new Violation("extend-accepted", step + " set a lease, but the model says the owner "
                        + "holds nothing"));
            }
            // The whole hold, re-entries too, now ends with this lease unless extended again.
            owner.fixedLeaseEnd = sent + lease.toNanos();
            owner.leaseEndBound = now + lease.toNanos();
            if (held != null) {
                held.leaseEnd = sent + lease.toNanos();
            }
            owner.mixedLease = false;
            int holdCount = run.holdCount(c, t, side);
            // The new lease counts from the send: a reply slower than the lease may find the hold over already.
            long asked = System.nanoTime();
            model.losses().advance(asked);
            return model.settle(c, t, side, holdCount, false, asked);
        }
        if (outcome instanceof IllegalMonitorStateException refused) {
            boolean faulted = owner.shakenUntil > now || owner.exposedUntil > now;
            if (owner.surelyHolds() && !faulted && !owner.beliefUnknown && owner.fixedLeaseEnd == 0) {
                return Optional.of(new Violation("extend-refused", step + " was refused, but the model says the owner "
                        + "holds " + owner + ": " + refused.getMessage()));
            }
            if (owner.mayHold()) {
                model.losses().lost(c, t, side, now, model.leaseNanos());
            }
            return model.settle(c, t, side, run.holdCount(c, t, side), false, now);
        }
        // Unknown: Redis keeps the old lease or the new one, and the lock ends the hold by the shorter. How long the
        // hold lasts is then no promise either way: unchecked until the owner's next call settles it.
        if (owner.mayHold()) {
            owner.mixedLease = true;
            owner.beliefUnknown = true;
            long old = owner.leaseEndBound > 0 ? owner.leaseEndBound : now + model.leaseNanos();
            owner.leaseEndBound = Math.max(old, now + lease.toNanos());
        }
        if (held != null) {
            // The handle trusts the shorter lease.
            long end = sent + lease.toNanos();
            held.leaseEnd = held.leaseEnd == 0 ? end : Math.min(held.leaseEnd, end);
        }
        return Optional.empty();
    }

    /**
     * A lease under the minimum, or a closed client's handle: the call must throw before anything is
     * sent, and leave what the owner believed ({@code before}, -2 when something else may change it) as it was,
     * unless a stall of the machine noticed since the call was {@code sent} shook the {@code owner}.
     */
    private static Optional<Violation> refusedAtTheCall(RunContext run, Step step, Object outcome, int before,
                                                        boolean closedClient, OwnerModel owner, long sent) {
        int c = step.client();
        int t = step.thread();
        boolean refused = closedClient ? outcome instanceof IllegalStateException
                || outcome instanceof IllegalMonitorStateException || outcome instanceof IllegalArgumentException
                : outcome instanceof IllegalArgumentException;
        String why = closedClient ? "on a closed client's handle" : "with a lease under " + SHORTEST_LEASE_MILLIS + " ms";
        if (!refused) {
            return Optional.of(new Violation("extend-not-refused", step + " " + why + " was not refused at the call: "
                    + OwnerCalls.describe(outcome)));
        }
        Side side = Step.isHandle(t) ? run.held(c, t).side : step.side();
        int after = belief(run, c, t, side);
        // A stall noticed meanwhile may have starved the renewals: the hold may then be lost, told or not.
        boolean stalledMeanwhile = owner.shakenUntil > sent;
        if (before != -2 && after != before && !stalledMeanwhile) {
            return Optional.of(new Violation("refused-extend-changed", step + " was refused at the call (" + why
                    + "), yet the owner's hold count went from " + before + " to " + after
                    + (Step.isHandle(t) ? " (isValid() " + (before > 0) + " -> " + (after > 0) + ")" : "")));
        }
        if (closedClient) {
            return Optional.empty();
        }
        // A fixed lease may have run out since the last check (a held renewal was waited for first).
        long now = System.nanoTime();
        run.model().losses().advance(now);
        return run.model().settle(c, t, side, after, false, now);
    }

    /** What the owner believes: a thread's hold count, or 1 while a handle (a closed client's too) says it is valid. */
    private static int belief(RunContext run, int c, int t, Side side) {
        if (!Step.isHandle(t)) {
            return run.holdCount(c, t, side);
        }
        Object valid = run.call(c, t, run.held(c, t).hold::isValid);
        return valid instanceof Boolean b ? (b ? 1 : 0) : -1;
    }
}
