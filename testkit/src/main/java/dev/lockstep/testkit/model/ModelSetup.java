package dev.lockstep.testkit.model;

import dev.lockstep.CompositeLocks;
import dev.lockstep.Guarantee;
import dev.lockstep.testkit.model.Step.Side;
import dev.lockstep.testkit.stage.Stage;
import java.time.Duration;
import java.util.Set;

/**
 * How a stage is modelled, and the shape every modelled run shares: three clients of two owner
 * threads and two hold handles each, one lock.
 *
 * @param stage     the stage
 * @param claims    what it claims: only those are checked
 * @param lease     the watchdog timeout (and default lease)
 * @param readWrite whether the lock has a read side
 * @param fenced    whether holds carry tokens
 * @param severalNames whether the client also locks several names as one ({@code getAll}): the group side
 */
public record ModelSetup(Stage stage, Set<Guarantee> claims, Duration lease, boolean readWrite, boolean fenced,
                         boolean severalNames) {

    static final int CLIENTS = 3;
    static final int THREADS = 2;
    /** Hold handles per client ({@code tryAcquire}): owner slots {@link #THREADS} and up, each used from a thread of its own. */
    static final int HANDLES = 2;
    /** Owner slots per client: its threads, then its handles. */
    static final int OWNERS = THREADS + HANDLES;
    /** What "within one lease" allows for a loaded 2-core machine. */
    static final Duration SLACK = Duration.ofMillis(500);
    /** How long a blip, a fault on the wire, keeps a client's link dark. */
    static final Duration BLIP = Duration.ofMillis(250);
    /** The name of the modelled lock. */
    static final String LOCK = "modelled";
    /** The other name of the group, on a lock over several names: {@code getAll(LOCK, OTHER)}. */
    static final String OTHER = "modelled-other";
    /** How many sides an owner's counts are kept for. */
    static final int SIDES = Side.values().length;

    /** The setup of {@code stage} with a short lease, as its own client says it is. */
    public static ModelSetup of(Stage stage) {
        return new ModelSetup(stage, stage.claims(), Duration.ofMillis(600), stage.readWrite(), stage.fenced(),
                CompositeLocks.class.isAssignableFrom(stage.locksClass()));
    }
}
