package dev.lockstep.rw;

import dev.lockstep.testkit.contract.ScheduleContract;

/** The read-write lock under random schedules of clients, calls and faults, beside its contract. */
class SchedulesTest extends ScheduleContract {

    SchedulesTest() {
        super("read-write-lock", ReadWriteLocks.class);
    }
}
