package dev.lockstep.testkit.model;

import dev.lockstep.DistLock;
import dev.lockstep.testkit.model.Step.Side;
import java.util.concurrent.Callable;

/**
 * What the handling of every step shares in one run.
 *
 * @param setup   how the stage is modelled
 * @param model   the reference model
 * @param threads the owners' threads
 * @param clients the client slots
 * @param log     what the run did
 */
record RunContext(ModelSetup setup, ReferenceModel model, OwnerThreads threads, ClientSlots clients, RunLog log) {

    /** Slot {@code c}'s lock, on {@code side}. */
    DistLock lock(int c, Side side) {
        return clients.lock(c, side);
    }

    /** Runs {@code body} on owner (c, t)'s thread within {@link OwnerThreads#CALL_DEADLINE}. */
    Object call(int c, int t, Callable<?> body) {
        return threads.call(c, t, body, OwnerThreads.CALL_DEADLINE);
    }

    /** What owner (c, t)'s lock on {@code side} reports as its hold count, or -1 when it cannot say. */
    int holdCount(int c, int t, Side side) {
        Object count = call(c, t, lock(c, side)::holdCount);
        return count instanceof Integer n ? n : -1;
    }
}
