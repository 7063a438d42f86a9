package dev.lockstep.testkit.contract;

import static org.junit.jupiter.api.Assertions.fail;

import dev.lockstep.Locks;
import dev.lockstep.testkit.explore.ScheduleExplorer;
import org.junit.jupiter.api.Test;

/**
 * Random schedules of clients, calls and faults that must keep the guarantees the stage claims
 * ({@link ScheduleExplorer}). A class of its own beside the stage's {@link LockContract}: its
 * holders' leases are short and a loss must be told within a margin a crowded JVM can miss, so it
 * runs alone in its test JVM while the contract's tests run in another. A stage's class only names
 * the stage:
 *
 * <pre>{@code class SchedulesTest extends ScheduleContract {
 *     SchedulesTest() { super("v4-watchdog", WatchdogLocks.class); }
 * }}</pre>
 */
public abstract class ScheduleContract extends NamedStageContract {

    /** The schedules for stage {@code name}, whose entry point is {@code locks}. */
    protected ScheduleContract(String name, Class<? extends Locks> locks) {
        super(name, locks);
    }

    @Test
    void randomSchedulesKeepTheClaims() throws Exception {
        ScheduleExplorer.Report report = new ScheduleExplorer(stage(), fixture(), stage().claims()).explore();
        System.out.println(report.summary());
        if (!report.passed()) {
            fail(report.failure());
        }
    }
}
