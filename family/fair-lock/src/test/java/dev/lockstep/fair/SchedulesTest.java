package dev.lockstep.fair;

import dev.lockstep.testkit.contract.ScheduleContract;

/** The fair lock under random schedules of clients, calls and faults, beside its contract. */
class SchedulesTest extends ScheduleContract {

    SchedulesTest() {
        super("fair-lock", FairLocks.class);
    }
}
