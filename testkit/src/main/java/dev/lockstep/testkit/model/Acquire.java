package dev.lockstep.testkit.model;

import dev.lockstep.DistLock;
import dev.lockstep.FencedLock;
import dev.lockstep.Guarantee;
import dev.lockstep.testkit.history.History.Kind;
import dev.lockstep.testkit.model.OwnerThreads.Hung;
import dev.lockstep.testkit.model.Step.WireFault;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * The owners' lock calls: each runs on its owner's thread, under its wire fault, and hands its
 * outcome (granted, refused, or thrown with the outcome unknown) to the {@link ReferenceModel}, with
 * what the call itself must have done: return in time, and not refuse a re-entry while Redis answers.
 */
final class Acquire {

    /** How long {@code lock(lease)} waits instead when another live owner holds the lock. */
    private static final Duration BOUNDED_WAIT = Duration.ofMillis(200);

    private Acquire() {
    }

    /**
     * A lock call: its step, when it began, whether it re-enters (the owner surely holds, unshaken),
     * whether the owner held before it at all (shaken or not), and whether it waits for another owner's hold.
     */
    record Attempt(Step step, long start, boolean reentry, boolean heldBefore, boolean blockedByOther) {
    }

    /** Plays a lock call (lock, tryLock in its forms, an interrupted lockInterruptibly) and judges its outcome. */
    static Optional<Violation> acquire(RunContext run, Step step, String actor) {
        int c = step.client();
        int t = step.thread();
        ReferenceModel model = run.model();
        boolean blockedByOther = model.otherHolder(c, t, step.side()).isPresent();
        Callable<Object> body = body(run, step, blockedByOther);
        OwnerModel owner = model.owner(c, t, step.side());
        Attempt attempt = new Attempt(step, System.nanoTime(), reentry(owner), heldBefore(run, step, owner), blockedByOther);
        Object outcome = step.kind() == Step.Kind.INTERRUPT ? OwnerCalls.interrupted(run, c, t, step.millis(), body)
                : OwnerCalls.underFault(run, step, body);
        return outcome(run, attempt, actor, outcome);
    }

    /**
     * Whether the owner held before its call: surely, or in its lock's belief while the model took the
     * hold for lost (a force of the name) and the lock has yet to signal it. Such a lock re-enters, finds
     * its field gone and takes the lock afresh, and its loss signal may come after the grant (multi-lock,
     * seed -7242193832922602760 of {@code lab explore-model --seed 1129}, which did not replay).
     */
    private static boolean heldBefore(RunContext run, Step step, OwnerModel owner) {
        return owner.surelyHolds() || owner.lostAt > 0 && !owner.lossSignalled
                && run.holdCount(step.client(), step.thread(), step.side()) > 0;
    }

    /** Starts {@code step}'s {@code tryLock(wait)} on its owner's thread without waiting for it. */
    static Future<?> contend(RunContext run, Step step) {
        return run.threads().submit(step.client(), step.thread(), body(run, step, false));
    }

    /** {@code step}'s attempt, starting now: what the model knew of its owner when it began. */
    static Attempt attempt(RunContext run, Step step) {
        OwnerModel owner = run.model().owner(step.client(), step.thread(), step.side());
        return new Attempt(step, System.nanoTime(), reentry(owner), heldBefore(run, step, owner), false);
    }

    private static boolean reentry(OwnerModel owner) {
        return owner.surelyHolds() && owner.shakenUntil <= System.nanoTime() && !owner.beliefUnknown;
    }

    /** The lease {@code step} asks for: its own for a fixed-lease call, else null (the watchdog's). */
    static Duration lease(Step step) {
        return step.kind() == Step.Kind.TRY_LOCK_LEASE || step.kind() == Step.Kind.LOCK_LEASE
                ? Duration.ofMillis(step.millis()) : null;
    }

    /**
     * The call {@code step} makes on its owner's lock. On a fenced lock, {@code lock()} and
     * {@code tryLock(wait)} are {@link FencedLock}'s forms that also return the token.
     */
    private static Callable<Object> body(RunContext run, Step step, boolean blockedByOther) {
        DistLock lock = run.lock(step.client(), step.side());
        FencedLock fenced = lock instanceof FencedLock f ? f : null;
        Duration wait = Duration.ofMillis(step.millis());
        return switch (step.kind()) {
            // lock() would wait for a holder that never unlocks (the steps run one at a time): bounded instead.
            case LOCK -> blockedByOther ? () -> lock.tryLock(wait, null) : () -> {
                if (fenced != null) {
                    return fenced.lockAndGetToken() > 0;
                }
                lock.lock();
                return true;
            };
            case LOCK_LEASE -> blockedByOther ? () -> lock.tryLock(BOUNDED_WAIT, lease(step)) : () -> {
                lock.lock(lease(step));
                return true;
            };
            case TRY_LOCK -> lock::tryLock;
            case TRY_LOCK_WAIT -> fenced != null ? () -> fenced.tryLockAndGetToken(wait, null) != null
                    : () -> lock.tryLock(wait, null);
            case CONTEND -> () -> lock.tryLock(wait, null);
            case TRY_LOCK_UNIT -> () -> lock.tryLock(step.millis(), TimeUnit.MILLISECONDS);
            case TRY_LOCK_LEASE -> () -> lock.tryLock(Duration.ZERO, lease(step));
            default -> () -> {
                lock.lockInterruptibly();
                return true;
            };
        };
    }

    /** Hands the outcome of {@code attempt} to the model, with what the call itself must have done. */
    static Optional<Violation> outcome(RunContext run, Attempt attempt, String actor, Object outcome) {
        Step step = attempt.step();
        int c = step.client();
        int t = step.thread();
        ReferenceModel model = run.model();
        OwnerModel owner = model.owner(c, t, step.side());
        owner.inFlight = false;
        owner.refusedUnderFault = Boolean.FALSE.equals(outcome) && step.fault() != WireFault.NONE ? step : null;
        Duration lease = lease(step);
        if (outcome instanceof Hung hung) {
            return Optional.of(new Violation("hung", step + " did not return within " + hung.deadline().toMillis()
                    + " ms" + (attempt.reentry() ? " although the thread holds the lock" : "")));
        }
        boolean blocks = step.kind() == Step.Kind.LOCK || step.kind() == Step.Kind.LOCK_LEASE;
        String what = step + (blocks && attempt.blockedByOther()
                ? " (another holds it: waits " + (step.kind() == Step.Kind.LOCK ? step.millis() : BOUNDED_WAIT.toMillis())
                + " ms)" : "");
        // A loss the lock signalled during the call, while it holds after it, was of an earlier hold: the call
        // found that hold past its deadline and took the lock afresh (v4, seed 9100595222066023572 of lab
        // explore-model --seed 314159, on a machine at load 25).
        // A re-entry that comes back as a first hold found its hold gone and took the lock afresh, whether or not the
        // loss signal, which runs on the lock's own thread, has reached the model yet (v5, seed -7072385382549499864 of lab
        // explore-model --seed 31337). So does a call of an owner whose hold a forceUnlock may have taken unannounced
        // (shaken, so no re-entry to the model): the lock re-entered, found its field gone and took the lock afresh.
        // The count the lock reports, asked once.
        boolean granted = Boolean.TRUE.equals(outcome);
        int count = granted || owner.lossSignalled ? run.holdCount(c, t, step.side()) : -1;
        boolean freshAfterLoss = granted && attempt.heldBefore() && count == 1;
        boolean earlierHoldLost = freshAfterLoss || owner.lossSignalled && count > 0;
        if (granted && owner.lostAt > attempt.start() && !earlierHoldLost) {
            // Granted while waiting in the background, then lost to a forceUnlock, a stall or a close that came after.
            owner.granted(attempt.start());
            model.losses().lost(c, t, step.side(), owner.lostAt, model.leaseNanos());
            owner.beliefUnknown = true;
            run.log().note(actor, Kind.NOTE, step + " -> granted, and lost since");
            return Optional.empty();
        }
        if (granted) {
            owner.mixedLease |= owner.fixedLeaseEnd > 0 && lease == null;
            // After an earlier hold's loss the new one dates from the call's end, so no late signal of the old ends it.
            owner.granted(earlierHoldLost ? System.nanoTime() : attempt.start());
            // The count says whether this was a first hold, also when an earlier call's fate was unknown.
            if (lease != null && count == 1) {
                owner.fixedLeaseEnd = attempt.start() + lease.toNanos();
                owner.leaseEndBound = System.nanoTime() + lease.toNanos();
            } else if (lease != null && owner.fixedLeaseEnd > 0) {
                // A fixed-lease hold re-entered with a fixed lease: a re-entry never shortens the hold.
                owner.fixedLeaseEnd = Math.max(owner.fixedLeaseEnd, attempt.start() + lease.toNanos());
                owner.leaseEndBound = Math.max(owner.leaseEndBound, System.nanoTime() + lease.toNanos());
            } else if (lease != null && count > 1) {
                // A fixed lease into a renewed hold: how long the mix lasts is no promise of the API.
                owner.mixedLease = true;
            }
            run.log().history().acquired(actor, attempt.start() - System.nanoTime() + run.log().history().now(), lease, count,
                    what);
            run.log().note(actor, Kind.NOTE, what + " -> granted, holdCount " + count);
            return model.settle(c, t, step.side(), count, false, System.nanoTime());
        }
        if (Boolean.FALSE.equals(outcome) || outcome instanceof InterruptedException
                || outcome instanceof IllegalMonitorStateException) {
            run.log().note(actor, Kind.DENIED, what + " -> " + OwnerCalls.describe(outcome));
            boolean blipEnded = step.fault() == WireFault.BLIP && step.millis() >= ModelSetup.BLIP.toMillis() + 500;
            // A hold lost during the call (its loss signalled meanwhile) is no re-entry any more.
            if (Boolean.FALSE.equals(outcome) && attempt.reentry() && owner.surelyHolds()
                    && run.setup().claims().contains(Guarantee.REENTRANT)
                    && (step.fault() == WireFault.NONE || blipEnded)) {
                return Optional.of(new Violation("re-entry-refused", step + " returned false although the thread holds "
                        + owner + " and Redis " + (blipEnded ? "answered again " + (step.millis()
                        - ModelSetup.BLIP.toMillis()) + " ms before the wait ended" : "answered")));
            }
            Optional<Violation> settled = model.settle(c, t, step.side(), run.holdCount(c, t, step.side()), false,
                    System.nanoTime());
            if (owner.refusedUnderFault != null) {
                // "Refused" is the lock's guess when its replies were lost: Redis may have granted it all the same.
                model.losses().unheardGrant(c, t, step.side(), System.nanoTime());
            }
            return settled;
        }
        run.log().note(actor, Kind.NOTE, what + " -> threw, outcome unknown: " + OwnerCalls.describe(outcome));
        // A fixed lease that may have gone into a renewed hold: how long the mix lasts is no promise of the API.
        owner.mixedLease |= lease != null && owner.mayHold() && owner.fixedLeaseEnd == 0;
        owner.maybeGranted();
        return Optional.empty();
    }
}
