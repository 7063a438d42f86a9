package dev.lockstep;

import java.util.concurrent.locks.ReadWriteLock;

/**
 * A lock with two sides, like Redisson's {@code RReadWriteLock}: readers share the read lock, a
 * writer holds the write lock alone. This object is the write lock itself (so it runs every
 * exclusive-lock scenario), and hands out its read lock. A writer may also take the read lock (a
 * downgrade); a reader may not take the write lock (an upgrade would wait for itself).
 */
public interface ReadWriteDistLock extends DistLock, ReadWriteLock {

    /** The shared side: many threads, in many clients, hold it at once while no one writes. */
    @Override
    DistLock readLock();

    /** The exclusive side: this object. */
    @Override
    DistLock writeLock();
}
