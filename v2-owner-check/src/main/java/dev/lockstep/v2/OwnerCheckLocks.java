package dev.lockstep.v2;

import dev.lockstep.internal.AbstractDistLock;
import dev.lockstep.internal.AbstractLocks;
import dev.lockstep.DistLock;
import dev.lockstep.Guarantee;
import dev.lockstep.internal.Lease;
import dev.lockstep.LockOptions;
import dev.lockstep.internal.LuaScript;
import java.util.EnumSet;
import java.util.List;
import java.util.UUID;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.params.SetParams;

/**
 * Stage 2: every acquisition writes a fresh random token ({@code SET key token NX PX lease}),
 * and unlock deletes the key only if it still holds that token, checked and deleted in one script.
 *
 * <p>A holder whose lease ran out can no longer delete its successor's lock. It still cannot take
 * the lock twice (a second {@code SET NX} fails against its own key), and it is not told when its
 * lease runs out; it finds out at unlock.
 */
public final class OwnerCheckLocks extends AbstractLocks {

    private static final LuaScript UNLOCK = LuaScript.load(OwnerCheckLocks.class, "unlock.lua");
    private static final LuaScript EXTEND = LuaScript.load(OwnerCheckLocks.class, "extend.lua");

    /** A client of the stage-2 lock over {@code redis}. */
    public OwnerCheckLocks(UnifiedJedis redis, LockOptions options) {
        super(redis, options, EnumSet.of(Guarantee.LIVENESS_AFTER_CRASH, Guarantee.OWNER_ONLY_RELEASE));
    }

    @Override
    protected DistLock newLock(String name) {
        return new OwnerCheckLock(name);
    }

    private final class OwnerCheckLock extends AbstractDistLock {

        OwnerCheckLock(String name) {
            super(name, OwnerCheckLocks.this);
        }

        @Override
        protected boolean tryAcquireOnce(Lease lease) {
            String token = UUID.randomUUID().toString();
            boolean taken = redis().set(key(), token, SetParams.setParams().nx().px(lease.millis())) != null;
            if (taken) {
                remember(token);
            }
            return taken;
        }

        @Override
        protected void release() {
            String token = ownerValue();
            if (token == null) {
                throw new IllegalMonitorStateException("lock '" + name() + "' is not held by this thread");
            }
            forget();
            Object deleted = UNLOCK.run(redis(), List.of(key()), List.of(token));
            if (Long.valueOf(0).equals(deleted)) {
                throw new IllegalMonitorStateException("lock '" + name()
                        + "' was no longer ours at unlock: its lease ran out, and it was left as it was");
            }
        }

        /** The token tells this holder's key from its successor's, so only its own lease is set. */
        @Override
        protected void extendHold(Lease lease) {
            String token = ownerValue();
            if (token == null) {
                throw new IllegalMonitorStateException("lock '" + name() + "' is not held by this thread");
            }
            if (Long.valueOf(0).equals(EXTEND.run(redis(), List.of(key()), List.of(token, Long.toString(lease.millis()))))) {
                throw new IllegalMonitorStateException("lock '" + name()
                        + "' was no longer ours to extend: its lease ran out, and it was left as it was");
            }
        }
    }
}
