package dev.lockstep.testkit.model;

import dev.lockstep.DistLock;
import dev.lockstep.LockHold;
import dev.lockstep.testkit.history.History.Kind;
import dev.lockstep.testkit.model.OwnerThreads.Hung;
import dev.lockstep.testkit.model.Step.Side;
import dev.lockstep.testkit.model.Step.WireFault;
import java.time.Duration;
import java.util.Optional;

/**
 * The hold handles' calls: {@code tryAcquire} on a thread of the client, a handle of its own that
 * no thread owns; then {@code release()} and {@code close()} from the handle's own thread. A handle
 * is an owner of the model like a thread, whose belief is {@code isValid()}. A call that gives no
 * handle leaves nobody to end what Redis may have granted: its field must run out within a lease.
 */
final class HoldCalls {

    private HoldCalls() {
    }

    /** Plays {@code tryAcquire} into the step's handle slot and judges its outcome. */
    static Optional<Violation> acquire(RunContext run, Step step, String actor) {
        int c = step.client();
        int h = step.thread();
        if (run.held(c, h) != null) {
            run.log().note(actor, Kind.NOTE, step + " -> the slot still has a handle: nothing to call");
            return Optional.empty();
        }
        Side side = step.side();
        ReferenceModel model = run.model();
        OwnerModel owner = model.owner(c, h, side);
        DistLock lock = run.lock(c, side);
        boolean fixed = step.kind() == Step.Kind.TRY_ACQUIRE_LEASE;
        Duration wait = fixed ? Duration.ZERO : Duration.ofMillis(step.millis());
        Duration lease = fixed ? Duration.ofMillis(step.millis()) : null;
        Step onTaker = new Step(step.kind(), c, Step.acquiringThread(h), side, step.millis(), step.fault());
        long start = System.nanoTime();
        Object outcome = OwnerCalls.underFault(run, onTaker, () -> lock.tryAcquire(wait, lease));
        long now = System.nanoTime();
        if (outcome instanceof Hung hung) {
            return Optional.of(new Violation("hung", step + " did not return within " + hung.deadline().toMillis() + " ms"));
        }
        if (outcome instanceof Optional<?> taken && taken.isPresent()) {
            HoldSlots.Held held = run.clients().holds().put(c, h, run.clients().clientId(c), (LockHold) taken.get(), side);
            if (!lock.name().equals(held.hold.lockName())) {
                return Optional.of(new Violation("hold-name", step + " gave a handle of lock '" + held.hold.lockName()
                        + "', taken from lock '" + lock.name() + "'"));
            }
            owner.granted(start);
            if (lease != null) {
                owner.fixedLeaseEnd = start + lease.toNanos();
                owner.leaseEndBound = now + lease.toNanos();
                held.leaseEnd = start + lease.toNanos();
            }
            run.log().history().acquired(actor, start - now + run.log().history().now(), lease, 1, step.toString());
            run.log().note(actor, Kind.NOTE, step + " -> granted: " + held.field);
            return model.settle(c, h, side, run.holdCount(c, h, side), false, now);
        }
        run.log().note(actor, Kind.DENIED, step + " -> " + (outcome instanceof Optional ? "refused"
                : OwnerCalls.describe(outcome)));
        owner.settle(0);
        if (step.fault() != WireFault.NONE || !(outcome instanceof Optional)) {
            orphans(run, c, now);
        }
        return Optional.empty();
    }

    /** Plays the handle's {@code release()} or {@code close()} from its own thread; either way the slot is empty after. */
    static Optional<Violation> release(RunContext run, Step step, String actor) {
        int c = step.client();
        int h = step.thread();
        HoldSlots.Held held = run.held(c, h);
        if (held == null) {
            run.log().note(actor, Kind.NOTE, step + " -> no handle in the slot: nothing to call");
            return Optional.empty();
        }
        boolean close = step.kind() == Step.Kind.HOLD_CLOSE;
        long start = run.log().history().now();
        Object outcome = OwnerCalls.underFault(run, step, () -> {
            if (close) {
                held.hold.close();
            } else {
                held.hold.release();
            }
            return true;
        });
        long now = System.nanoTime();
        if (outcome instanceof Hung hung) {
            return Optional.of(new Violation("hung", step + " did not return within " + hung.deadline().toMillis() + " ms"));
        }
        run.log().note(actor, Kind.NOTE, step + " -> " + (Boolean.TRUE.equals(outcome) ? "released"
                : OwnerCalls.describe(outcome)) + (held.lossNote == null ? "" : " (its onLost heard: " + held.lossNote + ")"));
        Object valid = run.call(c, h, held.hold::isValid);
        try {
            return released(run, step, held, outcome, valid, start, now);
        } finally {
            run.clients().holds().clear(c, h);
        }
    }

    /** Judges a release or close that returned {@code outcome}, after which the handle said {@code valid}. */
    private static Optional<Violation> released(RunContext run, Step step, HoldSlots.Held held, Object outcome,
                                                Object valid, long start, long now) {
        int c = step.client();
        int h = step.thread();
        ReferenceModel model = run.model();
        OwnerModel owner = model.owner(c, h, held.side);
        String actor = RunLog.actor(step);
        if (!Boolean.FALSE.equals(valid)) {
            return Optional.of(new Violation("ended-but-valid", step + " ended the handle, yet its isValid() says "
                    + OwnerCalls.describe(valid)));
        }
        if (held.clientClosed) {
            return Optional.empty();
        }
        boolean faulted = owner.shakenUntil > now || owner.exposedUntil > now;
        boolean excused = faulted || owner.beliefUnknown || owner.fixedLeaseEnd > 0;
        if (Boolean.TRUE.equals(outcome)) {
            if (!owner.mayHold() && !excused) {
                return Optional.of(new Violation("release-accepted", step + " was accepted, but the model says the "
                        + "handle holds nothing"));
            }
            run.log().history().unlocked(start, actor, 0, step.toString());
            owner.settle(0);
            return Optional.empty();
        }
        if (outcome instanceof IllegalMonitorStateException refused && owner.surelyHolds() && !excused) {
            return Optional.of(new Violation("release-refused", step + " was refused, but the model says the handle "
                    + "holds " + owner + ": " + refused.getMessage()));
        }
        // Refused, or thrown with the outcome unknown: the handle is over, and its lease ends what Redis may keep.
        model.losses().lost(c, h, held.side, now, model.leaseNanos());
        return Optional.empty();
    }

    /**
     * A handle acquisition that gave no handle, under a fault: a field Redis stores for a handle of
     * client {@code c} that is in no slot has no one to end it, and must run out within one lease.
     */
    static void orphans(RunContext run, int c, long now) {
        String prefix = run.clients().clientId(c) + ":-";
        HoldSlots holds = run.clients().holds();
        for (String field : RedisView.read(run.clients().nodes(), run.setup()).anyFields()) {
            String base = RedisView.owner(field);
            boolean inSlot = false;
            for (int h = ModelSetup.THREADS; h < ModelSetup.OWNERS; h++) {
                inSlot |= base.equals(holds.field(c, h));
            }
            if (base.startsWith(prefix) && !inSlot && run.model().departures().deadline(field) == null) {
                run.model().departures().depart(field, now + run.model().leaseNanos());
            }
        }
    }
}
