package dev.lockstep.testkit.history;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The shared resource a lock protects: a counter updated by read, work, write. Under mutual
 * exclusion every increment counts; when two holders overlap, one write overwrites the other.
 */
public final class ProtectedCounter {

    private final AtomicLong value = new AtomicLong();
    private final AtomicLong writes = new AtomicLong();

    /** The current value. */
    public long read() {
        return value.get();
    }

    /** Stores {@code newValue}; each call is one intended increment. */
    public void write(long newValue) {
        writes.incrementAndGet();
        value.set(newValue);
    }

    /** Increments that were overwritten by a concurrent holder. */
    public long lostUpdates() {
        return writes.get() - value.get();
    }
}
