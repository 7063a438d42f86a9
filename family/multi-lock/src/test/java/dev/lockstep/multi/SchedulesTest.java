package dev.lockstep.multi;

import dev.lockstep.testkit.contract.ScheduleContract;

/** The multi-name lock under random schedules of clients, calls and faults, beside its contract. */
class SchedulesTest extends ScheduleContract {

    SchedulesTest() {
        super("multi-lock", MultiNameLocks.class);
    }
}
