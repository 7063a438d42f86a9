package dev.lockstep.v4.internal;

import dev.lockstep.LeaseLoss;
import dev.lockstep.LockObserver;
import dev.lockstep.internal.Lease;
import java.time.Duration;
import java.util.function.Consumer;
import java.util.function.LongFunction;

/**
 * Stage 4's machinery, one per client for all its locks: the {@link Renewer} that keeps default
 * leases alive, the {@link LeaseClock} that notices when one is lost and tells its holder, and the
 * {@link GiveBacks} that undo what an interrupted or lost call may have left. Each lock keeps its
 * holds in a {@link HoldTable} made here.
 */
public final class Watchdog implements AutoCloseable {

    /**
     * How often the renewal and clock threads wake with nothing to do: well under a default lease's
     * third (10 s), so that scheduling a new hold's renewal and deadline wakes neither of them.
     */
    static final Duration TICK = Duration.ofSeconds(1);

    private final Renewer renewer;
    private final LeaseClock clock;
    private final GiveBacks giveBacks;
    private final LockObserver observer;

    /** A watchdog whose threads carry {@code clientName} in their names, telling {@code observer} of failed renewals. */
    public Watchdog(String clientName, LockObserver observer) {
        this.observer = observer;
        this.renewer = new Renewer(clientName);
        this.clock = new LeaseClock(clientName);
        this.giveBacks = new GiveBacks(clientName);
    }

    /**
     * A fresh table of holds for lock {@code lockName}, telling {@code onLost} about each hold it
     * loses; {@code ownerOf} names a thread's owner field from its id.
     */
    public HoldTable holds(String lockName, Consumer<LeaseLoss> onLost, LongFunction<String> ownerOf) {
        return holds(lockName, onLost, ownerOf, null);
    }

    /**
     * As above, and each lost hold is also undone in Redis: {@code undo} gets the hold's owner and
     * runs on the give-back thread before that owner's next call. For a field that something else
     * keeps alive past the hold's own lease: a writer's, in a hash its reads renew.
     */
    public HoldTable holds(String lockName, Consumer<LeaseLoss> onLost, LongFunction<String> ownerOf,
            Consumer<String> undo) {
        return new HoldTable(lockName, onLost, ownerOf, undo, renewer, clock, giveBacks, observer);
    }

    /** When a hold of {@code lease}, taken by a request sent at {@code sentNanos}, stops being believed. */
    public static long deadline(long sentNanos, Lease lease) {
        return LeaseClock.deadline(sentNanos, lease);
    }

    /** Stops all renewals, checks, loss notices and give-backs; held leases simply run out, as after a crash. */
    @Override
    public void close() {
        renewer.close();
        clock.close();
        giveBacks.close();
    }
}
