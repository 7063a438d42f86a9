package dev.lockstep.testkit.scenario;

import dev.lockstep.Guarantee;
import dev.lockstep.LockOptions;
import dev.lockstep.testkit.fault.FaultyLink;
import dev.lockstep.testkit.history.Actor;
import dev.lockstep.testkit.history.History;
import dev.lockstep.testkit.history.History.Kind;
import dev.lockstep.testkit.stage.Stage;
import java.time.Duration;
import java.util.List;

/**
 * The lost reply of {@link LostReply}, one call later: A already holds the lock and takes it
 * again, Redis counts the re-entry, and the reply is lost, so A's call fails. A then unlocks the
 * one hold it knows of. A lock that adds the re-entry to Redis's count is left one hold up: the
 * lock stays taken for a lease, or, renewed by a watchdog, forever. Judged from the history: after
 * A's unlock, B must get the lock at once.
 */
public final class LostReentryReply extends Scenario {

    private static final String LOCK = "orders";
    /**
     * A's failed re-entry returns only after its client's timeouts, about 2 s, so a count left
     * behind keeps B out for the lease's last 2 s: twice {@link #PROMPTLY}, whatever the machine's load.
     */
    private static final Duration LEASE = Duration.ofSeconds(4);
    /**
     * B sleeps on a release or spins every 100 ms, so a free lock is its well within this, even on
     * stage 6 when a busy machine keeps two nodes' unlocks queued for half a second.
     */
    private static final Duration PROMPTLY = Duration.ofSeconds(1);
    private static final Duration B_WAIT = LEASE.multipliedBy(2);

    /** The scenario as the catalog lists it. */
    public LostReentryReply() {
        super("lost-reentry-reply", Guarantee.RETRY_SAFE,
                "A holds the lock and takes it again; Redis counts the re-entry but its reply is lost, so the call "
                + "fails. A's one unlock must still free the lock.");
    }

    @Override
    public String needs() {
        return "a reentrant lock";
    }

    @Override
    public boolean appliesTo(Stage stage) {
        return stage.claims().contains(Guarantee.REENTRANT);
    }

    @Override
    public Verdict run(ScenarioContext context) throws Exception {
        LockOptions options = Stage.leaseOptions(LEASE);
        List<FaultyLink> links = context.links();
        Actor a = context.actorBehind("A", links, options);
        Actor b = context.actor("B", options);
        if (!a.tryLock(LOCK, Duration.ZERO, null)) {
            throw new TooSlowToPlay("A could not take a free lock");
        }
        links.forEach(FaultyLink::loseReplies);
        context.history().record(History.REDIS, Kind.FAULT, "A's replies are lost on the way back");
        a.note("takes the lock again");
        long reentered = System.nanoTime();
        if (a.tryLock(LOCK, Duration.ZERO, null)) {
            throw new IllegalStateException("A heard a reply that should have been lost");
        }
        long failedAfterMillis = (System.nanoTime() - reentered) / 1_000_000;
        links.forEach(FaultyLink::heal);
        context.history().record(History.REDIS, Kind.FAULT, "A's link heals");
        if (failedAfterMillis > LEASE.minus(PROMPTLY).toMillis()) {
            // No renewal reached Redis meanwhile either: A's hold may have run out under the fault, on the machine's pace.
            throw new TooSlowToPlay("A's failed re-entry took " + failedAfterMillis + " ms of its " + LEASE.toMillis()
                    + " ms lease");
        }
        // Right after the heal the unlock may meet connections still being replaced and fail, its outcome
        // unknown: the lock must be free promptly all the same. Only a refusal breaks the claim at once.
        Actor.Unlock unlock = a.release(LOCK);
        if (unlock == Actor.Unlock.REFUSED) {
            return Verdict.violated("A's unlock of the hold it had was refused after its re-entry failed.");
        }
        boolean bGotIt = b.tryLock(LOCK, B_WAIT, null);
        if (bGotIt) {
            b.unlock(LOCK);
        }
        return judge(context.history(), bGotIt, unlock == Actor.Unlock.DONE ? Kind.UNLOCK : Kind.UNLOCK_REFUSED,
                context.stage());
    }

    private static Verdict judge(History history, boolean bGotIt, Kind unlocked, Stage stage) {
        long released = history.last("A", unlocked).at();
        if (!bGotIt) {
            return Verdict.violated("A unlocked its one hold at " + released / 1_000_000 + " ms, yet B could not take "
                    + "the lock in " + B_WAIT.toMillis() + " ms: the failed re-entry's count outlived A, kept alive by "
                    + "renewals.");
        }
        long lagMillis = (history.last("B", Kind.ACQUIRED).at() - released) / 1_000_000;
        if (lagMillis > PROMPTLY.toMillis()) {
            requireKeyOutlivedUnlock(history, "A", "B", released, lagMillis, stage, "a count left behind");
            return Verdict.violated("A unlocked its one hold at " + released / 1_000_000 + " ms, but B got the lock "
                    + "only " + lagMillis + " ms later, when the lease ran out: Redis still counted the failed re-entry.");
        }
        return Verdict.held("A's unlock wrote the count A believed, so the failed re-entry left nothing behind: B got "
                + "the lock " + lagMillis + " ms after A's unlock.");
    }
}
