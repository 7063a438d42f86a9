package dev.lockstep.v7;

import dev.lockstep.testkit.contract.ScheduleContract;

/** Stage 7 under random schedules of clients, calls and faults, beside its contract. */
class SchedulesTest extends ScheduleContract {

    SchedulesTest() {
        super("v7-fencing", FencedLocks.class);
    }
}
