package dev.lockstep.testkit.model;

import dev.lockstep.testkit.fault.FaultyLink;
import dev.lockstep.testkit.fault.HeldSends;
import dev.lockstep.testkit.model.Step.Side;
import dev.lockstep.testkit.model.Step.WireFault;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.Future;

/** How an owner's call runs (under its step's wire fault, or interrupted on the way) and how its outcome reads. */
final class OwnerCalls {

    /** Every watchdog thread's name starts so (stage 4's {@code Renewer}, which the later stages reuse). */
    private static final String WATCHDOG_THREAD = "lockstep-watchdog-";
    /** The longest a renewal is held: under a third of the model's lease, so no hold runs out meanwhile. */
    private static final Duration HELD_AT_MOST = Duration.ofMillis(150);

    private OwnerCalls() {
    }

    /** Runs {@code body} on the step's owner thread under the step's wire fault. */
    static Object underFault(RunContext run, Step step, Callable<Object> body) {
        List<FaultyLink> links = run.clients().links(step.client());
        switch (step.fault()) {
            case LOST_REPLY -> links.forEach(FaultyLink::loseReplies);
            case BLIP -> links.forEach(FaultyLink::blackhole);
            case NONE -> {
                return run.call(step.client(), step.thread(), body);
            }
            case RENEWAL_HELD -> {
                return withRenewalHeld(run, step, body);
            }
        }
        Future<?> call = run.threads().submit(step.client(), step.thread(), body);
        if (step.fault() == WireFault.BLIP) {
            OwnerThreads.sleep(ModelSetup.BLIP.toMillis());
            links.forEach(FaultyLink::heal);
        }
        Object outcome = OwnerThreads.await(call, OwnerThreads.CALL_DEADLINE);
        links.forEach(FaultyLink::heal);
        run.noteStalls();
        long now = System.nanoTime();
        run.model().losses().shake(step.client(), step.thread(), now);
        for (Side side : Side.values()) {
            run.model().owner(step.client(), step.thread(), side).exposedUntil = now + run.model().leaseNanos();
        }
        run.clients().drainTold(run.model());
        return outcome;
    }

    /**
     * {@code body} while the client's watchdog holds a renewal it decided to send, unsent: let go
     * once the call returned or blocks waiting for it, or after {@link #HELD_AT_MOST}. A renewal is
     * due every third of a lease; none within half the model's one-lease bound (the lease and its
     * slack: the client renews nothing) and the call runs plainly.
     */
    private static Object withRenewalHeld(RunContext run, Step step, Callable<Object> body) {
        HeldSends redis = run.clients().sends(step.client());
        redis.holdNext(thread -> thread.getName().startsWith(WATCHDOG_THREAD));
        if (!awaitHeld(redis, run.model().leaseNanos() / 2)) {
            redis.disarm();
            return run.call(step.client(), step.thread(), body);
        }
        Future<?> call = run.threads().submit(step.client(), step.thread(), body);
        Thread owner = run.threads().thread(step.client(), step.thread());
        long letGoBy = System.nanoTime() + HELD_AT_MOST.toNanos();
        while (!call.isDone() && owner.getState() != Thread.State.BLOCKED && System.nanoTime() < letGoBy) {
            OwnerThreads.sleep(1);
        }
        redis.disarm();
        awaitAnswered(redis);
        return OwnerThreads.await(call, OwnerThreads.CALL_DEADLINE);
    }

    private static boolean awaitHeld(HeldSends redis, long withinNanos) {
        try {
            return redis.awaitHeld(Duration.ofNanos(withinNanos));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static void awaitAnswered(HeldSends redis) {
        try {
            redis.awaitAnswered(OwnerThreads.CALL_DEADLINE);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** {@code body} ({@code lockInterruptibly()}) on owner (c, t)'s thread, interrupted {@code afterMillis} later. */
    static Object interrupted(RunContext run, int c, int t, long afterMillis, Callable<Object> body) {
        Future<?> call = run.threads().submit(c, t, body);
        OwnerThreads.sleep(afterMillis);
        run.threads().thread(c, t).interrupt();
        Object outcome = OwnerThreads.await(call, OwnerThreads.CALL_DEADLINE);
        // A grant that came before the interrupt leaves the flag set: clear it, or the owner's next call would see it.
        run.call(c, t, Thread::interrupted);
        return outcome;
    }

    /** A call's outcome as the log shows it: the exception and its message, "refused", or the value. */
    static String describe(Object outcome) {
        if (outcome instanceof Throwable thrown) {
            return thrown.getClass().getSimpleName() + (thrown.getMessage() == null ? "" : ": " + thrown.getMessage());
        }
        return Boolean.FALSE.equals(outcome) ? "refused" : String.valueOf(outcome);
    }
}
