package dev.lockstep.testkit.scenario;

import dev.lockstep.Guarantee;
import dev.lockstep.LockOptions;
import dev.lockstep.testkit.history.Actor;
import dev.lockstep.testkit.stage.Stage;
import java.time.Duration;

/**
 * A holder calls a method that takes the same lock. A lock that does not know its own holder
 * makes the caller wait for itself: {@code lock()} would hang, {@code tryLock} times out. A
 * reentrant lock counts holds, and only the last unlock lets another client in.
 */
public final class Reentry extends Scenario {

    private static final String LOCK = "orders";
    private static final Duration LEASE = Duration.ofSeconds(10);
    private static final Duration INNER_WAIT = Duration.ofMillis(500);
    private static final Duration RELEASE_WAIT = Duration.ofSeconds(2);

    /** The scenario as the catalog lists it. */
    public Reentry() {
        super("reentry", Guarantee.REENTRANT,
                "A holds the lock and calls a method that locks it again: "
                + "without reentrancy A waits for itself.");
    }

    @Override
    public Verdict run(ScenarioContext context) throws Exception {
        LockOptions options = Stage.leaseOptions(LEASE);
        Actor a = context.actor("A", options);
        Actor b = context.actor("B", options);
        if (!a.tryLock(LOCK, Duration.ZERO, null)) {
            throw new TooSlowToPlay("A could not take a free lock");
        }
        a.enter("enter placeOrder()");
        a.note("calls reserveStock(), which locks again");
        boolean inner = a.tryLock(LOCK, INNER_WAIT, null);
        if (!inner) {
            a.exit("exit placeOrder(), reserveStock() failed");
            a.unlock(LOCK);
            return Verdict.violated("A could not re-take the lock it held: it waited " + INNER_WAIT.toMillis()
                    + " ms for itself (lock() would spin until its own lease ran out).");
        }
        a.note("reserveStock() done");
        a.unlock(LOCK);
        boolean bAfterInner = b.tryLock(LOCK, Duration.ZERO, null);
        if (bAfterInner) {
            b.unlock(LOCK);
            return Verdict.violated("A's inner unlock released the lock while placeOrder() still ran: B got in.");
        }
        a.exit("exit placeOrder()");
        a.unlock(LOCK);
        boolean bAfterOuter = b.tryLock(LOCK, RELEASE_WAIT, null);
        if (!bAfterOuter) {
            return Verdict.violated("A unlocked as often as it locked, yet B could not take the lock: a hold leaked.");
        }
        b.unlock(LOCK);
        return Verdict.held("A re-took its own lock, B stayed out until A's last unlock, then got in.");
    }
}
