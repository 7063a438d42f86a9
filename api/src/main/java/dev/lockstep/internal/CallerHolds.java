package dev.lockstep.internal;

import dev.lockstep.LockObserver;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The holds each thread took through one lock object's calls (acquisitions minus unlocks), as the
 * calls saw them, whatever Redis says. They tell the {@link LockObserver}, and while any thread has
 * one the client keeps the object, so {@link dev.lockstep.Locks#get} hands the holders this one,
 * with what it knows.
 */
final class CallerHolds {

    private final String lockName;
    private final LockObserver observer;
    private final Runnable keep;
    private final Runnable letGo;
    private final Map<Long, OwnerHolds> holdsByThread = new ConcurrentHashMap<>();

    /**
     * The holds of lock {@code lockName}, told to {@code observer}; {@code keep} makes the client
     * keep the lock object, {@code letGo} lets it go.
     */
    CallerHolds(String lockName, LockObserver observer, Runnable keep, Runnable letGo) {
        this.lockName = lockName;
        this.observer = observer;
        this.keep = keep;
        this.letGo = letGo;
    }

    /** {@code taken}, the outcome of a call that began at {@code started}, counted as a hold of the calling thread if taken. */
    boolean counted(long started, boolean taken) {
        if (!taken) {
            observer.timedOut(lockName, System.nanoTime() - started);
        } else {
            observer.acquired(lockName, System.nanoTime() - started);
            Caller caller = Caller.current();
            OwnerHolds first = new OwnerHolds(caller.name(), Instant.now(), 1);
            // One monitor for both updates: a release racing a take must not let go of an object just taken.
            synchronized (holdsByThread) {
                holdsByThread.merge(caller.id(), first, (held, one) -> held.plusOne());
                keep.run();
            }
        }
        return taken;
    }

    /** Whether owner {@code id} has holds counted here. */
    boolean has(long id) {
        return holdsByThread.containsKey(id);
    }

    /** Every owner's holds now. */
    List<OwnerHolds> owners() {
        return List.copyOf(holdsByThread.values());
    }

    /**
     * Ends one hold of the calling thread, if it had any, whatever Redis said; true when that was
     * its last. When no thread has a hold any more, the client lets the object go.
     */
    boolean uncounted() {
        long thread = Caller.currentId();
        boolean held = holdsByThread.containsKey(thread);
        if (held) {
            observer.released(lockName);
        }
        synchronized (holdsByThread) {
            boolean lastHold = held && holdsByThread.computeIfPresent(thread,
                    (id, holds) -> holds.holds() > 1 ? holds.minusOne() : null) == null;
            if (holdsByThread.isEmpty()) {
                letGo.run();
            }
            return lastHold;
        }
    }
}
