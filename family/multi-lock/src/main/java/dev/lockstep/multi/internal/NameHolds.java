package dev.lockstep.multi.internal;

import dev.lockstep.v4.internal.HeldState;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * How many holds each thread of one client has of each name, through any of the client's locks
 * over it: a name may be in a lock alone and in locks over several names at once, and every script
 * that writes the name's count must write the sum. Each lock keeps its own holds; this adds them up.
 * A lock nobody holds or references is collected, and its names are forgotten with it, so a client
 * that locks millions of names stays small.
 */
public final class NameHolds {

    /** Enough stripes that two threads rarely share one; a stripe is held for one script at a time. */
    private static final int STRIPES = 64;

    private final Map<String, Set<Entry>> byName = new ConcurrentHashMap<>();
    private final ReentrantLock[] writers = new ReentrantLock[STRIPES];
    private final ReferenceQueue<NameGroupLock> collected = new ReferenceQueue<>();

    /** Counts holds of a client's locks, which take no lock of its own until one is added. */
    public NameHolds() {
        for (int i = 0; i < STRIPES; i++) {
            writers[i] = new ReentrantLock();
        }
    }

    /**
     * Runs {@code write}, which sends a sum of thread {@code threadId}'s holds to Redis and records
     * the result, while no other such write of that thread's runs: its own calls, and the give-backs
     * of its lost holds on the client's give-back thread. Each sum is then computed from counts no
     * write in flight is about to change, and the last one sent is right.
     */
    <T> T writing(long threadId, Supplier<T> write) {
        ReentrantLock writer = writers[Math.floorMod(Long.hashCode(threadId), STRIPES)];
        writer.lock();
        try {
            return write.get();
        } finally {
            writer.unlock();
        }
    }

    /** Counts {@code lock}'s holds under each of its names from now on. */
    void add(NameGroupLock lock) {
        forgetCollected();
        Entry entry = new Entry(lock, collected);
        for (String name : entry.names) {
            byName.compute(name, (n, locks) -> {
                Set<Entry> present = locks != null ? locks : ConcurrentHashMap.newKeySet();
                present.add(entry);
                return present;
            });
        }
    }

    /** Thread {@code threadId}'s holds of {@code name}, through every lock of the client over it. */
    int of(String name, long threadId) {
        forgetCollected();
        Set<Entry> locks = byName.get(name);
        int holds = 0;
        if (locks != null) {
            for (Entry entry : locks) {
                NameGroupLock lock = entry.get();
                holds += lock == null ? 0 : lock.holdOf(threadId).depth();
            }
        }
        return holds;
    }

    /**
     * How long, in whole ms and at least 1, {@code name} must stay in Redis for thread {@code threadId}'s
     * holds of it through the client's locks other than {@code leaving}: until the latest lease Redis was told for them.
     * Rounded down, since Redis counts it from a moment later than now: never past the lease the holds were given.
     */
    long leaseLeftWithout(NameGroupLock leaving, String name, long threadId) {
        long now = System.nanoTime();
        long latest = now;
        for (Entry entry : byName.getOrDefault(name, Set.of())) {
            NameGroupLock lock = entry.get();
            HeldState held = lock == null || lock == leaving ? null : lock.holdOf(threadId);
            if (held != null && held.depth() > 0 && held.leaseEndNanos() - latest > 0) {
                latest = held.leaseEndNanos();
            }
        }
        return Math.max(1, (latest - now) / 1_000_000);
    }

    private void forgetCollected() {
        for (Object gone = collected.poll(); gone != null; gone = collected.poll()) {
            Entry entry = (Entry) gone;
            for (String name : entry.names) {
                byName.computeIfPresent(name, (n, locks) -> {
                    locks.remove(entry);
                    return locks.isEmpty() ? null : locks;
                });
            }
        }
    }

    /** A lock, weakly, with its names, which outlive it here until it is forgotten. */
    private static final class Entry extends WeakReference<NameGroupLock> {

        private final List<String> names;

        Entry(NameGroupLock lock, ReferenceQueue<NameGroupLock> queue) {
            super(lock, queue);
            this.names = lock.names();
        }
    }
}
