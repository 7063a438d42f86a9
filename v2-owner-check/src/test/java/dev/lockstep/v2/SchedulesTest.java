package dev.lockstep.v2;

import dev.lockstep.testkit.contract.ScheduleContract;

/** Stage 2 under random schedules of clients, calls and faults, beside its contract. */
class SchedulesTest extends ScheduleContract {

    SchedulesTest() {
        super("v2-owner-check", OwnerCheckLocks.class);
    }
}
