package dev.lockstep.testkit.model;

import dev.lockstep.DistLock;
import dev.lockstep.testkit.model.Step.Side;
import java.util.List;
import java.util.Optional;

/**
 * A hold lost without its owner's call (to a {@code forceUnlock}, or a stall past the lease) must
 * reach its owner: the owner's lock stops believing it holds within one lease.
 */
final class LossNotice {

    private final RunContext run;
    private final BackgroundCalls background;

    /** The notices of {@code run}, whose owners may be inside {@code background} calls. */
    LossNotice(RunContext run, BackgroundCalls background) {
        this.run = run;
        this.background = background;
    }

    /** Each of {@code victims} ({client, thread, side}) lost its hold: its lock must stop believing it holds in time. */
    Optional<Violation> awaitTold(List<int[]> victims, String why) {
        long deadline = System.nanoTime() + run.model().leaseNanos();
        for (int[] v : victims) {
            if (background.waiting(v[0], v[1])) {
                continue; // inside a lock call: its outcome settles it
            }
            DistLock lock = run.lock(v[0], Side.values()[v[2]]);
            while (true) {
                Object held = run.call(v[0], v[1], lock::isHeldByCurrentThread);
                if (Boolean.FALSE.equals(held)) {
                    break;
                }
                if (System.nanoTime() > deadline) {
                    return Optional.of(new Violation("not-told", Step.ownerName(v[0], v[1])
                            + ReferenceModel.sideName(Side.values()[v[2]]) + " " + why + ", and still believes it holds "
                            + run.model().leaseNanos() / 1_000_000 + " ms later"));
                }
                OwnerThreads.sleep(20);
            }
        }
        return Optional.empty();
    }
}
