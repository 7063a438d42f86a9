package dev.lockstep.testkit.scenario;

import dev.lockstep.DistLock;
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
 * The fifth source article's story (docs/sources.md): A's lock call times out although Redis ran
 * it. The reply was lost on the way back (a {@link FaultyLink} forwards the request and drops the answer), so A holds a
 * grant it does not know about, and does what any caller does: it tries again. A lock that counts
 * holds adds the retry to the lost grant, and A's one unlock leaves a hold behind: the lock stays
 * taken for a lease, or, renewed by a watchdog, forever. A lock without an owner check makes A wait
 * for its own grant. Judged from the history: after A's last unlock, B must get the lock at once.
 */
public final class LostReply extends Scenario {

    private static final String LOCK = "orders";
    private static final Duration LEASE = Duration.ofSeconds(4);
    private static final Duration RETRY_WAIT = Duration.ofMillis(500);
    /**
     * A quorum stage's retry goes to each node behind the lost request and its undo, and a node's lane
     * may take the node timeout and a reconnection to get past the lost reply: its retry waits longer
     * (at 500 ms it was refused twice in a day while the lanes caught up, its lost grant undone 0.7 s later).
     */
    private static final Duration QUORUM_RETRY_WAIT = Duration.ofMillis(1500);
    private static final Duration WORK = Duration.ofMillis(100);
    /** B sleeps on a release or spins every 100 ms: a free lock is its within this. */
    private static final Duration PROMPTLY = Duration.ofMillis(500);
    private static final Duration B_WAIT = LEASE.multipliedBy(2);
    /** Room left for the lost grant past A's retry, for the nodes' clock drift and the retry's last attempt. */
    private static final Duration GRANT_OUTLIVES_RETRY = Duration.ofMillis(300);
    /** How far past its wait a refused retry may return before its slowed attempts, not the lock, kept it out. */
    private static final Duration RETRY_OVERRUN = Duration.ofMillis(250);

    /** The scenario as the catalog lists it. */
    public LostReply() {
        super("lost-reply", Guarantee.RETRY_SAFE,
                "A's lock call times out although Redis ran it, and A tries again: "
                + "the grant it never heard of must not outlive A's unlock.");
    }

    @Override
    public Verdict run(ScenarioContext context) throws Exception {
        LockOptions options = Stage.leaseOptions(LEASE);
        List<FaultyLink> links = context.links();
        Actor a = context.actorBehind("A", links, options);
        Actor b = context.actor("B", options);
        warmUp(a);
        links.forEach(FaultyLink::loseReplies);
        context.history().record(History.REDIS, Kind.FAULT, "A's replies are lost on the way back");
        long callStart = System.nanoTime();
        if (a.tryLock(LOCK, Duration.ZERO, null)) {
            throw new IllegalStateException("A heard a reply that should have been lost");
        }
        links.forEach(FaultyLink::heal);
        context.history().record(History.REDIS, Kind.FAULT, "A's link heals");
        Duration retryWait = context.stage().multiNode() ? QUORUM_RETRY_WAIT : RETRY_WAIT;
        requireGrantOutlivesRetry(Duration.ofNanos(System.nanoTime() - callStart), retryWait);
        a.note("tries again");
        long retryStart = System.nanoTime();
        boolean retried = a.tryLock(LOCK, retryWait, null);
        requireRetryOnTime(retried, Duration.ofNanos(System.nanoTime() - retryStart), retryWait);
        if (retried) {
            a.critical(WORK);
            a.unlock(LOCK);
        }
        boolean bGotIt = b.tryLock(LOCK, B_WAIT, null);
        if (bGotIt) {
            b.unlock(LOCK);
        }
        return judge(context.history(), retried, bGotIt, retryWait, context.stage());
    }

    /**
     * The lost grant began after A's call did, so it lives at least a lease from the call's start.
     * A call slowed past that by a loaded machine would let the grant run out during A's retry, and
     * the retry would find the lock free whatever the stage does with it: the story never began.
     */
    private static void requireGrantOutlivesRetry(Duration lostCall, Duration retryWait) {
        if (lostCall.plus(retryWait).plus(GRANT_OUTLIVES_RETRY).compareTo(LEASE) > 0) {
            throw new TooSlowToPlay("A's lost call took " + lostCall.toMillis() + " ms, so its grant could run out "
                    + "during the retry");
        }
    }

    /**
     * A refused retry that returned well past its wait spent it in attempts a loaded machine slowed
     * (on a quorum stage, nodes that did not answer within the node timeout), not in waiting for the
     * lock: whether its own grant kept it out is not known.
     */
    private static void requireRetryOnTime(boolean retried, Duration took, Duration retryWait) {
        if (!retried && took.compareTo(retryWait.plus(RETRY_OVERRUN)) > 0) {
            throw new TooSlowToPlay("A's refused retry took " + took.toMillis() + " ms for a wait of "
                    + retryWait.toMillis() + " ms");
        }
    }

    /** Opens A's connections before the story, as in a running service: a connection's handshake is not the point. */
    private static void warmUp(Actor a) throws InterruptedException {
        DistLock lock = a.locks().get(ScenarioContext.WARM_UP_LOCK);
        if (!lock.tryLock(Duration.ofSeconds(1), null)) {
            throw new IllegalStateException("A could not take a free lock to open its connections");
        }
        lock.unlock();
    }

    private static Verdict judge(History history, boolean retried, boolean bGotIt, Duration retryWait, Stage stage) {
        if (!retried) {
            return Verdict.violated("A's retry waited " + retryWait.toMillis() + " ms for the lock Redis had already "
                    + "given it: a grant it never heard of, which blocks everyone, A included, until its lease ends.");
        }
        long released = history.last("A", Kind.UNLOCK).at();
        if (!bGotIt) {
            return Verdict.violated("A unlocked at " + released / 1_000_000 + " ms, yet B could not take the lock in "
                    + B_WAIT.toMillis() + " ms: the lost grant's hold outlived A's unlock, kept alive by renewals.");
        }
        long taken = history.last("B", Kind.ACQUIRED).at();
        long lagMillis = (taken - released) / 1_000_000;
        if (taken - released > PROMPTLY.toNanos()) {
            requireKeyOutlivedUnlock(history, "A", "B", released, lagMillis, stage, "a lost grant");
            return Verdict.violated("A unlocked at " + released / 1_000_000 + " ms, but B got the lock only "
                    + lagMillis + " ms later, when the lost grant's lease ran out: A's retry had counted a second hold.");
        }
        return Verdict.held("A's retry took the lock afresh (the lost grant counted as its own), and B got it "
                + lagMillis + " ms after A's unlock.");
    }
}
