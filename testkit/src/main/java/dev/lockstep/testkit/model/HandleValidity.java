package dev.lockstep.testkit.model;

import java.time.Duration;
import java.util.Optional;

/**
 * {@code LockHold.isValid()} is local and instant, as its contract says: it never asks Redis. Checked
 * while a client's link is dark, when a call that asks Redis would wait for its socket timeout.
 */
final class HandleValidity {

    /** Longer than any local answer on a loaded machine, shorter than the clients' socket timeout. */
    private static final Duration INSTANT = Duration.ofMillis(100);

    private HandleValidity() {
    }

    /** Each open handle of client slot {@code c}, whose link is dark now, must answer {@code isValid()} at once. */
    static Optional<Violation> answersLocally(RunContext run, int c) {
        for (int h = ModelSetup.THREADS; h < ModelSetup.OWNERS; h++) {
            HoldSlots.Held held = run.held(c, h);
            if (held == null || held.clientClosed) {
                continue;
            }
            long start = System.nanoTime();
            Object valid = run.call(c, h, held.hold::isValid);
            long took = System.nanoTime() - start;
            if (!(valid instanceof Boolean) || took > INSTANT.toNanos()) {
                return Optional.of(new Violation("validity-asks-redis", Step.ownerName(c, h) + " isValid() took "
                        + took / 1_000_000 + " ms and answered " + OwnerCalls.describe(valid)
                        + " while its client's link was dark: it must answer locally"));
            }
        }
        return Optional.empty();
    }
}
