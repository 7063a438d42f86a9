package dev.lockstep.testkit.model;

import dev.lockstep.testkit.fault.FaultyLink;
import dev.lockstep.testkit.model.Step.Side;
import dev.lockstep.testkit.model.Step.WireFault;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.Future;

/** How an owner's call runs (under its step's wire fault, or interrupted on the way) and how its outcome reads. */
final class OwnerCalls {

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
        run.model().shake(step.client(), step.thread(), now);
        for (Side side : Side.values()) {
            run.model().owner(step.client(), step.thread(), side).exposedUntil = now + run.model().leaseNanos();
        }
        run.clients().drainTold(run.model());
        return outcome;
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
