package dev.lockstep.v4;

import dev.lockstep.testkit.contract.ScheduleContract;

/** Stage 4 under random schedules of clients, calls and faults, beside its contract. */
class SchedulesTest extends ScheduleContract {

    SchedulesTest() {
        super("v4-watchdog", WatchdogLocks.class);
    }
}
