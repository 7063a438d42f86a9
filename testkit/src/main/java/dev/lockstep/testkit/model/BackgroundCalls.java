package dev.lockstep.testkit.model;

import dev.lockstep.testkit.history.History.Kind;
import dev.lockstep.testkit.model.OwnerThreads.Hung;
import java.util.Optional;
import java.util.concurrent.Future;

/**
 * Lock calls left waiting in the background ({@link Step.Kind#CONTEND}), one at most per owner,
 * while the next steps run: a waiter may wake on a release, or be the queue a re-entry must not join.
 */
final class BackgroundCalls {

    private final RunContext run;
    private final Future<?>[][] pending = new Future<?>[ModelSetup.CLIENTS][ModelSetup.OWNERS];
    private final Acquire.Attempt[][] attempts = new Acquire.Attempt[ModelSetup.CLIENTS][ModelSetup.OWNERS];

    /** The background calls of {@code run}. */
    BackgroundCalls(RunContext run) {
        this.run = run;
    }

    /** Starts {@code step}'s {@code tryLock(wait)} on its owner's thread and leaves it waiting. */
    void start(Step step, String actor) {
        int c = step.client();
        int t = step.thread();
        attempts[c][t] = Acquire.attempt(run, step);
        run.model().owner(c, t, step.side()).inFlight = true;
        pending[c][t] = Acquire.contend(run, step);
        run.log().note(actor, Kind.NOTE, step.toString());
    }

    /** Whether owner (c, t)'s thread is inside a call left waiting. */
    boolean waiting(int c, int t) {
        return pending[c][t] != null;
    }

    /** Whether any owner's call is left waiting: it may be granted any moment. */
    boolean anyWaiting() {
        for (Future<?>[] client : pending) {
            for (Future<?> call : client) {
                if (call != null) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Whether owner (c, t)'s call left waiting has returned, and only needs judging. */
    boolean returned(int c, int t) {
        return pending[c][t] != null && pending[c][t].isDone();
    }

    /**
     * Ends owner (c, t)'s call left waiting, if any, and hands its outcome to the model; it may
     * take no longer than its wait and {@link OwnerThreads#CALL_DEADLINE}.
     */
    Optional<Violation> resolve(int c, int t) {
        Future<?> call = pending[c][t];
        if (call == null) {
            return Optional.empty();
        }
        Acquire.Attempt attempt = attempts[c][t];
        pending[c][t] = null;
        Object outcome = OwnerThreads.await(call, OwnerThreads.CALL_DEADLINE.plusMillis(attempt.step().millis()));
        return Acquire.outcome(run, attempt, RunLog.actor(attempt.step()), outcome);
    }

    /** A closed client's waiters must return (their client is gone, so their outcome no longer counts). */
    Optional<Violation> endedWithClient(int c) {
        for (int t = 0; t < ModelSetup.OWNERS; t++) {
            Future<?> call = pending[c][t];
            if (call == null) {
                continue;
            }
            Step step = attempts[c][t].step();
            pending[c][t] = null;
            run.model().owner(c, t, step.side()).inFlight = false;
            Object outcome = OwnerThreads.await(call, OwnerThreads.CALL_DEADLINE);
            run.log().note(RunLog.actor(step), Kind.NOTE, step + " -> " + (outcome instanceof Throwable e
                    ? e.getClass().getSimpleName() : outcome) + " (its client was closed)");
            if (outcome instanceof Hung) {
                return Optional.of(new Violation("hung", step + " still waits " + OwnerThreads.CALL_DEADLINE.toMillis()
                        + " ms after its client was closed"));
            }
        }
        return Optional.empty();
    }
}
