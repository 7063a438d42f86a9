package dev.lockstep.v1;

import dev.lockstep.testkit.contract.ScheduleContract;

/** Stage 1 under random schedules of clients, calls and faults, beside its contract. */
class SchedulesTest extends ScheduleContract {

    SchedulesTest() {
        super("v1-setnx", SetnxLocks.class);
    }
}
