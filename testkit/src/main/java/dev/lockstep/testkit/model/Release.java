package dev.lockstep.testkit.model;

import dev.lockstep.DistLock;
import dev.lockstep.testkit.history.History.Kind;
import dev.lockstep.testkit.model.OwnerThreads.Hung;
import dev.lockstep.testkit.model.Step.Side;
import java.util.List;
import java.util.Optional;

/** The calls that end holds: an owner's {@code unlock()}, and a {@code forceUnlock()} that ends anyone's. */
final class Release {

    private Release() {
    }

    /** Plays an owner's {@code unlock()} and judges its outcome against the model. */
    static Optional<Violation> unlock(RunContext run, Step step, String actor) {
        int c = step.client();
        int t = step.thread();
        ReferenceModel model = run.model();
        OwnerModel owner = model.owner(c, t, step.side());
        DistLock lock = run.lock(c, step.side());
        long start = run.log().history().now();
        Object outcome = OwnerCalls.underFault(run, step, () -> {
            lock.unlock();
            return true;
        });
        long now = System.nanoTime();
        if (outcome instanceof Hung hung) {
            return Optional.of(new Violation("hung", step + " did not return within " + hung.deadline().toMillis() + " ms"));
        }
        if (Boolean.TRUE.equals(outcome)) {
            if (!owner.mayHold() && !owner.beliefUnknown) {
                return Optional.of(new Violation("unlock-accepted", step + " was accepted, but the model says the thread "
                        + "holds nothing"));
            }
            owner.released();
            int count = run.holdCount(c, t, step.side());
            run.log().history().unlocked(start, actor, count, step.toString());
            run.log().note(actor, Kind.NOTE, step + " -> unlocked, holdCount " + count);
            return model.settle(c, t, step.side(), count, true, now);
        }
        if (outcome instanceof IllegalMonitorStateException refused) {
            run.log().note(actor, Kind.UNLOCK_REFUSED, step + " -> refused: " + refused.getMessage());
            boolean faulted = owner.shakenUntil > now || owner.exposedUntil > now;
            if (owner.surelyHolds() && !faulted && !owner.beliefUnknown && owner.fixedLeaseEnd == 0) {
                return Optional.of(new Violation("unlock-refused", step + " was refused, but the model says the thread "
                        + "holds " + owner + ": " + refused.getMessage()));
            }
            model.losses().lost(c, t, step.side(), now, model.leaseNanos());
            return model.settle(c, t, step.side(), run.holdCount(c, t, step.side()), false, now);
        }
        run.log().note(actor, Kind.NOTE, step + " -> threw, outcome unknown: " + OwnerCalls.describe(outcome));
        owner.maybeReleased();
        return Optional.empty();
    }

    /** Plays a {@code forceUnlock()} of the step's side: its victims lose their holds and must be told. */
    static Optional<Violation> forceUnlock(RunContext run, LossNotice notice, Step step, String actor) {
        ReferenceModel model = run.model();
        DistLock lock = run.lock(step.client(), step.side());
        // An acquisition still under way is no victim: its grant may come after the force (the force freed the lock).
        List<int[]> holders = model.holders(-1).stream()
                .filter(v -> !model.owner(v[0], v[1], Side.values()[v[2]]).inFlight).toList();
        List<int[]> underWay = model.holders(-1).stream()
                .filter(v -> model.owner(v[0], v[1], Side.values()[v[2]]).inFlight).toList();
        Object outcome = run.call(step.client(), step.thread(), lock::forceUnlock);
        long now = System.nanoTime();
        run.log().note(actor, Kind.NOTE, step + " -> " + OwnerCalls.describe(outcome));
        if (!(outcome instanceof Boolean)) {
            for (int c = 0; c < ModelSetup.CLIENTS; c++) {
                model.losses().shake(c, now);
            }
            return Optional.empty();
        }
        // Nothing deleted: no lock, or (a read-write lock) one held in the other side's mode. A read side that
        // deleted found the lock in read mode: its readers lose their holds (Redisson's rule), and no writer held it.
        List<int[]> victims = Boolean.FALSE.equals(outcome) ? List.of()
                : step.side() == Side.READ && run.setup().readWrite()
                ? holders.stream().filter(v -> v[2] == Side.READ.ordinal()).toList() : holders;
        // A single name's force leaves a group's other name in Redis until its lease runs out.
        long within = run.setup().severalNames() ? model.leaseNanos() : ModelSetup.SLACK.toNanos();
        long toldBy = model.losses().toldBy(victims, now);
        victims.forEach(v -> model.losses().lost(v[0], v[1], Side.values()[v[2]], now, within));
        // Granted just before the force, such a hold is gone unannounced until its next renewal looks.
        underWay.forEach(v -> model.owner(v[0], v[1], Side.values()[v[2]]).shakenUntil = now + model.leaseNanos());
        return notice.awaitTold(victims, "lost its hold to " + step, toldBy);
    }
}
