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
 * @param stalls  the machine's own stalls, which may cost any hold a renewal
 */
record RunContext(ModelSetup setup, ReferenceModel model, OwnerThreads threads, ClientSlots clients, RunLog log,
                  MachineStalls stalls) {

    /** A stall of the machine longer than this may have delayed a renewal past its lease's slack. */
    private static final long STALL_EXCUSED_MILLIS = 150;

    /** Slot {@code c}'s lock, on {@code side}. */
    DistLock lock(int c, Side side) {
        return clients.lock(c, side);
    }

    /** Runs {@code body} on owner (c, t)'s thread within {@link OwnerThreads#CALL_DEADLINE}. */
    Object call(int c, int t, Callable<?> body) {
        Object outcome = threads.call(c, t, body, OwnerThreads.CALL_DEADLINE);
        noteStalls();
        return outcome;
    }

    /** After a stall of the machine every client is shaken: any hold may have lost a renewal, unannounced, for a lease. */
    void noteStalls() {
        long worst = stalls.worstSinceLastAsked();
        if (worst > STALL_EXCUSED_MILLIS) {
            long now = System.nanoTime();
            for (int c = 0; c < ModelSetup.CLIENTS; c++) {
                model.losses().shake(c, now);
            }
            log.line(String.format("%6d ms  the machine stalled %d ms: every hold may have missed a renewal",
                    log.history().now() / 1_000_000, worst));
        }
    }

    /**
     * What owner (c, t) reports as its hold count on {@code side}, or -1 when it cannot say: a
     * thread's lock's {@code holdCount()}; for a handle 1 while {@code isValid()}, else 0 (-1 for a
     * closed client's handle, which the model no longer follows).
     */
    int holdCount(int c, int t, Side side) {
        if (!Step.isHandle(t)) {
            Object count = call(c, t, lock(c, side)::holdCount);
            return count instanceof Integer n ? n : -1;
        }
        HoldSlots.Held held = clients.holds().get(c, t);
        if (held == null || held.side != side) {
            return 0;
        }
        if (held.clientClosed) {
            return -1;
        }
        Object valid = call(c, t, held.hold::isValid);
        return valid instanceof Boolean b ? (b ? 1 : 0) : -1;
    }

    /** The handle in owner slot (c, t), or null. */
    HoldSlots.Held held(int c, int t) {
        return clients.holds().get(c, t);
    }
}
