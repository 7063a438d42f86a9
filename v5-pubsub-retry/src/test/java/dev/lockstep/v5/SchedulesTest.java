package dev.lockstep.v5;

import dev.lockstep.testkit.contract.ScheduleContract;

/** Stage 5 under random schedules of clients, calls and faults, beside its contract. */
class SchedulesTest extends ScheduleContract {

    SchedulesTest() {
        super("v5-pubsub-retry", PubSubLocks.class);
    }
}
