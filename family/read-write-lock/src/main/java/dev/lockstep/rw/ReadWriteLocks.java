package dev.lockstep.rw;

import dev.lockstep.Guarantee;
import dev.lockstep.LockOptions;
import dev.lockstep.ReadWriteDistLock;
import dev.lockstep.v5.PubSubLocks;
import redis.clients.jedis.UnifiedJedis;

/**
 * The read-write lock of the lock family: stage 5's lock (watchdog renewals, waiters asleep on a
 * channel) with two sides, in the layout of Redisson's {@code RReadWriteLock}, so Redisson's
 * {@code getReadWriteLock(name)} and {@code get(name)} here are one lock. See {@link WriteLock} and
 * {@link ReadLock}; {@link RwKeys} names the keys.
 */
public final class ReadWriteLocks extends PubSubLocks {

    /** A client of the read-write lock over {@code redis}. */
    public ReadWriteLocks(UnifiedJedis redis, LockOptions options) {
        super(redis, options, claimsAnd(Guarantee.SHARED_READS));
    }

    /**
     * The read-write lock called {@code name}: this object is its write lock, {@code readLock()}
     * its read lock. The same name gives the same object while a thread of this client holds either
     * side or the caller keeps a reference.
     *
     * @throws NullPointerException     when {@code name} is null
     * @throws IllegalArgumentException when {@code name} is blank, or has braces that are not a whole
     *                                  Redis Cluster hash tag
     * @throws IllegalStateException    when this client is closed
     */
    @Override
    public ReadWriteDistLock get(String name) {
        return (ReadWriteDistLock) super.get(name);
    }

    @Override
    protected ReadWriteDistLock newLock(String name) {
        return new WriteLock(name, this, watchdog(), subscriber());
    }
}
