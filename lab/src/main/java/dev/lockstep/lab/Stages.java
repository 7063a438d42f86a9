package dev.lockstep.lab;

import dev.lockstep.fair.FairLocks;
import dev.lockstep.rw.ReadWriteLocks;
import dev.lockstep.testkit.stage.Stage;
import dev.lockstep.v1.SetnxLocks;
import dev.lockstep.v2.OwnerCheckLocks;
import dev.lockstep.v3.ReentrantHashLocks;
import dev.lockstep.v4.WatchdogLocks;
import dev.lockstep.v5.PubSubLocks;
import dev.lockstep.v6.RedLocks;
import dev.lockstep.v7.FencedLocks;
import java.util.List;

/** The stages the lab plays, in course order (each one fixes the failure its predecessor shows), then the lock family. */
final class Stages {

    private static final List<Stage> ALL = List.of(
            new Stage("v1-setnx", SetnxLocks.class),
            new Stage("v2-owner-check", OwnerCheckLocks.class),
            new Stage("v3-reentrant-hash", ReentrantHashLocks.class),
            new Stage("v4-watchdog", WatchdogLocks.class),
            new Stage("v5-pubsub-retry", PubSubLocks.class),
            new Stage("v6-redlock", RedLocks.class),
            new Stage("v7-fencing", FencedLocks.class),
            new Stage("fair-lock", FairLocks.class),
            new Stage("read-write-lock", ReadWriteLocks.class));

    private Stages() {
    }

    /** All stages, in course order. */
    static List<Stage> all() {
        return ALL;
    }

    /** The stage named {@code name} (its module), or an {@link IllegalArgumentException} listing the known ones. */
    static Stage byName(String name) {
        return ALL.stream().filter(s -> s.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no stage '" + name + "'; known: "
                        + ALL.stream().map(Stage::name).toList()));
    }
}
