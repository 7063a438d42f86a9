package dev.lockstep.testkit.scenario;

import dev.lockstep.Guarantee;
import dev.lockstep.LockOptions;
import dev.lockstep.testkit.history.Actor;
import dev.lockstep.testkit.history.Checker;
import dev.lockstep.testkit.history.Checker.Intrusion;
import dev.lockstep.testkit.stage.Stage;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * The T1..T6 story: A's lease runs out mid-work (T3), B takes the lock (T4) and works (T5), A
 * finishes and unlocks (T6). Without an owner check A's unlock deletes B's lock, and C walks in
 * beside B. Judged by {@link Checker#intrusions}: C acquiring inside B's lease, before B unlocked.
 */
public final class ForeignUnlock extends Scenario {

    private static final String LOCK = "orders";
    private static final Duration A_LEASE = Duration.ofMillis(300);
    private static final Duration A_WORK = Duration.ofMillis(600);
    private static final Duration B_LEASE = Duration.ofMillis(2000);
    private static final Duration B_WORK = Duration.ofMillis(800);
    private static final Duration C_WAIT = Duration.ofMillis(300);
    private static final Duration C_WORK = Duration.ofMillis(100);
    private static final Duration DEADLINE = Duration.ofSeconds(10);

    /** The scenario as the catalog lists it. */
    public ForeignUnlock() {
        super("foreign-unlock", Guarantee.OWNER_ONLY_RELEASE,
                "A's lease runs out mid-work, B takes the lock, A finishes and unlocks: "
                + "A's unlock deletes B's lock and C walks in beside B.");
    }

    @Override
    public Verdict run(ScenarioContext context) throws Exception {
        LockOptions options = Stage.scenarioOptions();
        Actor a = context.actor("A", options);
        Actor b = context.actor("B", options);
        Actor c = context.actor("C", options);
        if (!a.tryLock(LOCK, Duration.ZERO, A_LEASE)) {
            throw new TooSlowToPlay("A could not take a free lock");
        }
        CountDownLatch bHolds = new CountDownLatch(1);
        CountDownLatch cTried = new CountDownLatch(1);
        Future<Void> bTurn = context.background(() -> {
            if (b.tryLock(LOCK, DEADLINE, B_LEASE)) {
                bHolds.countDown();
                b.enter("enter");
                // B works at least B_WORK, and on until C has tried: A's unlock and C's try fall inside
                // B's work (T5), however long a busy machine keeps A from running.
                Thread.sleep(B_WORK.toMillis());
                cTried.await(DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
                b.exit("exit");
                b.unlock(LOCK);
            }
            return null;
        });
        a.enter("enter, work outlasts the lease");
        Thread.sleep(A_WORK.toMillis());
        // T6 only happens after T4: A finishes once B holds the lock, however slow the machine.
        if (!bHolds.await(DEADLINE.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new IllegalStateException("B never took the lock after A's lease ran out");
        }
        a.exit("exit");
        a.unlock(LOCK);
        try {
            if (c.tryLock(LOCK, C_WAIT, B_LEASE)) {
                c.critical(C_WORK);
                c.unlock(LOCK);
            }
        } finally {
            cTried.countDown();
        }
        context.await(bTurn, DEADLINE);

        List<Intrusion> intrusions = Checker.intrusions(context.history());
        if (!intrusions.isEmpty()) {
            return Verdict.violated(intrusions.get(0) + ": A's unlock deleted a lock that was B's.");
        }
        return Verdict.held("A's late unlock was refused, so nobody took the lock while B held it.");
    }
}
