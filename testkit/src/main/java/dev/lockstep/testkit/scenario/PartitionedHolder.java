package dev.lockstep.testkit.scenario;

import dev.lockstep.Guarantee;
import dev.lockstep.LockOptions;
import dev.lockstep.testkit.fault.FaultyLink;
import dev.lockstep.testkit.history.Actor;
import dev.lockstep.testkit.history.History;
import dev.lockstep.testkit.history.History.Event;
import dev.lockstep.testkit.history.History.Kind;
import dev.lockstep.testkit.stage.Stage;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Future;

/**
 * A's network to Redis goes dark while it holds the lock (a {@link FaultyLink} starts dropping
 * everything). Renewals cannot arrive, the lease runs out, and B takes the lock: that much is
 * unavoidable. The guarantee is that A is told it lost the lock before B can hold it, so A can
 * stop touching the shared resource. Judged from the history: A's loss signal must come before
 * B's acquisition, and B must acquire.
 */
public final class PartitionedHolder extends Scenario {

    private static final String LOCK = "orders";
    private static final Duration LEASE = Duration.ofMillis(1500);
    private static final Duration CONNECTED = Duration.ofMillis(700);
    private static final Duration DEADLINE = Duration.ofSeconds(10);

    /** The scenario as the catalog lists it. */
    public PartitionedHolder() {
        super("partitioned-holder", Guarantee.LEASE_LOSS_SIGNAL,
                "A is cut off from Redis while it holds the lock; its lease runs out and B takes the lock: "
                + "A must be told it lost the lock before B holds it.");
    }

    /** The holder hears of its loss some 80 ms before the key expires, from a clock thread that must run on time. */
    @Override
    public boolean timed() {
        return true;
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
        a.enter("enter, works until told to stop");
        Thread.sleep(CONNECTED.toMillis());
        links.forEach(FaultyLink::blackhole);
        a.note("its link to Redis goes dark");
        Future<Boolean> bTurn = context.background(() -> {
            boolean taken = b.tryLock(LOCK, DEADLINE, null);
            if (taken) {
                b.critical(Duration.ofMillis(100));
                b.unlock(LOCK);
            }
            return taken;
        });
        // A works until it is told, or until B has come and gone without A ever hearing.
        boolean told = false;
        while (!told && !bTurn.isDone()) {
            told = a.awaitLeaseLoss(Duration.ofMillis(20));
        }
        a.exit(told ? "exit: stops work" : "exit: never told, work done");
        boolean bGotIt = context.await(bTurn, DEADLINE.multipliedBy(2));
        links.forEach(FaultyLink::heal);
        a.unlock(LOCK);
        return judge(context.history(), bGotIt);
    }

    private static Verdict judge(History history, boolean bGotIt) {
        if (!bGotIt) {
            return Verdict.violated("B never took the lock after A's lease ran out.");
        }
        long bAcquired = history.first("B", Kind.ACQUIRED).orElseThrow().at();
        Optional<Event> told = history.first("A", Kind.LOST);
        if (told.isEmpty()) {
            return Verdict.violated("B took the lock at " + bAcquired / 1_000_000
                    + " ms while A, cut off from Redis, was never told it had lost it.");
        }
        if (told.get().at() > bAcquired) {
            return Verdict.violated("B took the lock at " + bAcquired / 1_000_000 + " ms, and A was told only at "
                    + told.get().millis() + " ms: too late.");
        }
        return Verdict.held("A was told at " + told.get().millis() + " ms that its lease was lost; B took the lock at "
                + bAcquired / 1_000_000 + " ms, after that.");
    }
}
