package dev.lockstep.testkit.scenario;

import java.util.List;
import java.util.NoSuchElementException;

/** Every scenario, in course order: each stage fixes the next one on this list. */
public final class Catalog {

    private static final List<Scenario> ALL = List.of(
            new CrashHolder(),
            new ForeignUnlock(),
            new Reentry(),
            new LongCriticalSection(),
            new PartitionedHolder(),
            new LostReply(),
            new LostReentryReply(),
            new CrowdedWait(),
            new DroppedSubscription(),
            new Failover(),
            new FailoverWithReplicaSync(),
            new EvictedLock(),
            new RestartAmnesia(RestartAmnesia.Remedy.NONE),
            new RestartAmnesia(RestartAmnesia.Remedy.AOF),
            new RestartAmnesia(RestartAmnesia.Remedy.DELAYED_RESTART),
            new PausedHolder(),
            new TokenFailover(false),
            new TokenFailover(true),
            new FencedReadGap(),
            new ReadersShare(),
            new WriterExcludes(),
            new WriterStarvation(),
            new Starvation(),
            new OppositeOrder(),
            new PartialAcquisition());

    private Catalog() {
    }

    /** All scenarios, in scoreboard order. */
    public static List<Scenario> all() {
        return ALL;
    }

    /** The scenario called {@code id}. */
    public static Scenario byId(String id) {
        return ALL.stream().filter(s -> s.id().equals(id)).findFirst()
                .orElseThrow(() -> new NoSuchElementException("no scenario '" + id + "'; known: "
                        + ALL.stream().map(Scenario::id).toList()));
    }
}
