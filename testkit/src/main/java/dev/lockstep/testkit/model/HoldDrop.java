package dev.lockstep.testkit.model;

import dev.lockstep.LockHold;
import dev.lockstep.testkit.history.History.Kind;
import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.Optional;

/**
 * A handle dropped unreleased: the run lets go of its last reference and runs the collector until
 * the handle is collected, within a deadline (its {@code onLost} listener mentions it, as a user's
 * does, and must not keep it alive). Its cleaner then releases the hold, and its lease ends it at
 * the latest: the model gives its field one lease to leave Redis.
 */
final class HoldDrop {

    /** How long the collector may take to find a dropped handle on a loaded machine. */
    static final Duration COLLECTED_WITHIN = Duration.ofSeconds(5);

    private HoldDrop() {
    }

    /** Drops the handle in the step's slot and waits for the collector to find it. */
    static Optional<Violation> drop(RunContext run, Step step, String actor) {
        int c = step.client();
        int h = step.thread();
        HoldSlots.Held held = run.held(c, h);
        if (held == null) {
            run.log().note(actor, Kind.NOTE, step + " -> no handle in the slot: nothing to drop");
            return Optional.empty();
        }
        // No local variable may keep the handle: an interpreted frame would hold it as long as the method runs.
        WeakReference<LockHold> collected = new WeakReference<>(held.hold);
        held.hold = null;
        long start = System.nanoTime();
        long deadline = start + COLLECTED_WITHIN.toNanos();
        while (collected.get() != null) {
            if (System.nanoTime() > deadline) {
                return Optional.of(new Violation("dropped-handle-kept", step + ": the handle, referenced by nothing but "
                        + "its own onLost listener, was not collected within " + COLLECTED_WITHIN.toMillis() + " ms"));
            }
            System.gc();
            OwnerThreads.sleep(10);
        }
        long now = System.nanoTime();
        run.log().note(actor, Kind.NOTE, step + " -> collected after " + (now - start) / 1_000_000 + " ms");
        if (!held.clientClosed && run.model().owner(c, h, held.side).mayHold()) {
            run.model().losses().lost(c, h, held.side, now, run.model().leaseNanos());
        } else {
            run.model().owner(c, h, held.side).settle(0);
        }
        run.clients().holds().clear(c, h);
        return Optional.empty();
    }
}
