package dev.lockstep.internal;

import dev.lockstep.DistLock;
import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Supplier;

/**
 * One client's lock objects, one per key: a name, or a key of a stage's own that no name can equal
 * (a group of names). They are referenced weakly, so one that nobody
 * references and nobody holds is collected and names do not pile up; one that some thread of the
 * client holds is kept, whoever references it, so the holders get back the object that knows
 * what they hold.
 */
final class LockObjects {

    private final ConcurrentMap<Object, Handle> byKey = new ConcurrentHashMap<>();
    private final ReferenceQueue<DistLock> collected = new ReferenceQueue<>();
    private final Set<DistLock> held = ConcurrentHashMap.newKeySet();

    /** The lock object under {@code key}: the one there is, or a new one from {@code create}. */
    DistLock get(Object key, Supplier<DistLock> create) {
        forgetCollected();
        while (true) {
            Handle handle = byKey.get(key);
            DistLock lock = handle == null ? null : handle.get();
            if (lock != null) {
                return lock;
            }
            DistLock fresh = create.get();
            Handle made = new Handle(key, fresh, collected);
            if (handle == null ? byKey.putIfAbsent(key, made) == null : byKey.replace(key, handle, made)) {
                return fresh;
            }
        }
    }

    /** Keeps {@code lock}, which a thread took, until {@link #letGo}. */
    void keep(DistLock lock) {
        held.add(lock);
    }

    /** Stops keeping {@code lock}: no thread holds it any more. */
    void letGo(DistLock lock) {
        held.remove(lock);
    }

    /** The lock objects some thread holds now. */
    List<DistLock> held() {
        return List.copyOf(held);
    }

    /** How many lock objects there are: held ones, and ones still referenced or not yet collected. */
    int count() {
        forgetCollected();
        return byKey.size();
    }

    private void forgetCollected() {
        for (Reference<? extends DistLock> gone = collected.poll(); gone != null; gone = collected.poll()) {
            Handle handle = (Handle) gone;
            byKey.remove(handle.key, handle);
        }
    }

    /** A weak reference to a lock object that remembers its key, so a collected one leaves the table. */
    private static final class Handle extends WeakReference<DistLock> {

        private final Object key;

        Handle(Object key, DistLock lock, ReferenceQueue<DistLock> queue) {
            super(lock, queue);
            this.key = key;
        }
    }
}
