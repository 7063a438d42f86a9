package dev.lockstep.v3;

import dev.lockstep.testkit.contract.ScheduleContract;

/** Stage 3 under random schedules of clients, calls and faults, beside its contract. */
class SchedulesTest extends ScheduleContract {

    SchedulesTest() {
        super("v3-reentrant-hash", ReentrantHashLocks.class);
    }
}
