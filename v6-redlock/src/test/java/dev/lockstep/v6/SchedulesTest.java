package dev.lockstep.v6;

import dev.lockstep.testkit.contract.ScheduleContract;

/** Stage 6 under random schedules of clients, calls and faults, beside its contract. */
class SchedulesTest extends ScheduleContract {

    SchedulesTest() {
        super("v6-redlock", RedLocks.class);
    }
}
