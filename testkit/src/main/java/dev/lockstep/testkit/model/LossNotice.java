package dev.lockstep.testkit.model;

import dev.lockstep.DistLock;
import dev.lockstep.Guarantee;
import dev.lockstep.testkit.model.Step.Side;
import java.util.List;
import java.util.Optional;

/**
 * A hold lost without its owner's call (to a {@code forceUnlock}, or a stall past the lease) must
 * reach its owner within one lease: a thread's lock stops believing it holds; a handle's
 * {@code isValid()} turns false and, on a stage that signals losses, its {@code onLost} listeners hear.
 */
final class LossNotice {

    private final RunContext run;
    private final BackgroundCalls background;

    /** The notices of {@code run}, whose owners may be inside {@code background} calls. */
    LossNotice(RunContext run, BackgroundCalls background) {
        this.run = run;
        this.background = background;
    }

    /** Each of {@code victims} ({client, thread, side}) lost its hold: it must stop believing it holds by {@code deadline}. */
    Optional<Violation> awaitTold(List<int[]> victims, String why, long deadline) {
        long since = System.nanoTime();
        for (int[] v : victims) {
            if (background.waiting(v[0], v[1])) {
                OwnerModel owner = run.model().owner(v[0], v[1], Side.values()[v[2]]);
                // Inside a lock call on this side, its outcome settles it. A call on another side (a group's, beside
                // a single name's fixed lease) tells nothing of this hold: the lock learns of its loss on its own.
                owner.beliefUnknown |= !owner.inFlight;
                continue;
            }
            if (Step.isHandle(v[1]) && run.held(v[0], v[1]) == null) {
                continue;
            }
            DistLock lock = run.lock(v[0], Side.values()[v[2]]);
            HoldSlots.Held handle = Step.isHandle(v[1]) ? run.held(v[0], v[1]) : null;
            boolean signals = run.setup().claims().contains(Guarantee.LEASE_LOSS_SIGNAL);
            while (true) {
                Object held = handle != null ? run.call(v[0], v[1], handle.hold::isValid)
                        : run.call(v[0], v[1], lock::isHeldByCurrentThread);
                // A handle's onLost listeners must hear of the loss too, on a stage that can tell.
                boolean listenersTold = handle == null || !signals || handle.toldAt > 0;
                if (Boolean.FALSE.equals(held) && listenersTold) {
                    break;
                }
                if (System.nanoTime() > deadline) {
                    return Optional.of(new Violation("not-told", Step.ownerName(v[0], v[1])
                            + ReferenceModel.sideName(Side.values()[v[2]]) + " " + why + ", and " + (System.nanoTime() - since)
                            / 1_000_000 + " ms later " + (Boolean.FALSE.equals(held) ? "its onLost listeners were not told"
                            : "still believes it holds")));
                }
                OwnerThreads.sleep(20);
            }
        }
        return Optional.empty();
    }
}
