package dev.lockstep.testkit.scenario;

import dev.lockstep.Guarantee;
import dev.lockstep.LockOptions;
import dev.lockstep.testkit.client.ClientProcess;
import dev.lockstep.testkit.history.Actor;
import dev.lockstep.testkit.stage.Stage;
import java.time.Duration;

/**
 * The holder's JVM is killed (SIGKILL) while it holds the lock: no finally block, no unlock.
 * The lock must free itself within the lease plus a margin, or everyone waits forever.
 */
public final class CrashHolder extends Scenario {

    private static final String LOCK = "orders";
    private static final Duration LEASE = Duration.ofMillis(500);
    private static final Duration MARGIN = Duration.ofMillis(1000);
    private static final Duration STARTUP = Duration.ofSeconds(10);

    /** The scenario as the catalog lists it. */
    public CrashHolder() {
        super("crash-holder", Guarantee.LIVENESS_AFTER_CRASH,
                "A's JVM is killed while it holds the lock; "
                + "B must still get the lock once A's lease runs out.");
    }

    @Override
    public Verdict run(ScenarioContext context) throws Exception {
        LockOptions options = Stage.leaseOptions(LEASE);
        ClientProcess a = context.process("A", options);
        Actor b = context.actor("B", options);
        a.lock(LOCK, null, STARTUP);
        a.kill();
        long killedAt = context.history().now();
        Duration bound = LEASE.plus(MARGIN);
        if (!b.tryLock(LOCK, bound, null)) {
            return Verdict.violated("A died holding the lock and B still could not take it "
                    + bound.toMillis() + " ms later: a dead holder blocks everyone.");
        }
        long waited = (context.history().now() - killedAt) / 1_000_000;
        b.critical(Duration.ofMillis(50));
        b.unlock(LOCK);
        return Verdict.held("B took the lock " + waited + " ms after A was killed, within the "
                + LEASE.toMillis() + " ms lease plus " + MARGIN.toMillis() + " ms.");
    }
}
