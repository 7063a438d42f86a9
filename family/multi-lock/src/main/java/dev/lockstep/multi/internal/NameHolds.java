package dev.lockstep.multi.internal;

import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * How many holds each thread of one client has of each name, through any of the client's locks
 * over it: a name may be in a lock alone and in locks over several names at once, and every script
 * that writes the name's count must write the sum. Each lock keeps its own holds; this adds them up.
 * A lock nobody holds or references is collected, and its names are forgotten with it, so a client
 * that locks millions of names stays small.
 */
public final class NameHolds {

    private final Map<String, Set<Entry>> byName = new ConcurrentHashMap<>();
    private final ReferenceQueue<NameGroupLock> collected = new ReferenceQueue<>();

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
                holds += lock == null ? 0 : lock.holdsOf(threadId);
            }
        }
        return holds;
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
