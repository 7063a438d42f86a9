package dev.lockstep.v1;

import dev.lockstep.internal.AbstractDistLock;
import dev.lockstep.internal.AbstractLocks;
import dev.lockstep.DistLock;
import dev.lockstep.Guarantee;
import dev.lockstep.internal.Lease;
import dev.lockstep.LockOptions;
import java.util.EnumSet;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.params.SetParams;

/**
 * Stage 1: the lock is a key set with {@code SET key 1 NX PX lease} and removed with {@code DEL}.
 *
 * <p>The lease keeps a crashed holder from blocking everyone forever. But the value says nothing
 * about who set it, so {@code unlock()} deletes whatever is there, even another client's lock.
 * It cannot tell that a lease ran out either.
 */
public final class SetnxLocks extends AbstractLocks {

    /** A client of the stage-1 lock over {@code redis}. */
    public SetnxLocks(UnifiedJedis redis, LockOptions options) {
        super(redis, options, EnumSet.of(Guarantee.LIVENESS_AFTER_CRASH));
    }

    @Override
    protected DistLock newLock(String name) {
        return new SetnxLock(name);
    }

    private final class SetnxLock extends AbstractDistLock {

        private static final String ANY_VALUE = "1";

        SetnxLock(String name) {
            super(name, SetnxLocks.this);
        }

        @Override
        protected boolean tryAcquireOnce(Lease lease) {
            boolean taken = redis().set(key(), ANY_VALUE, SetParams.setParams().nx().px(lease.millis())) != null;
            if (taken) {
                remember(ANY_VALUE);
            }
            return taken;
        }

        /** Deletes the key, whoever set it: the flaw stage 2 fixes. */
        @Override
        protected void release() {
            forget();
            redis().del(key());
        }
    }
}
