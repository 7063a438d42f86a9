package dev.lockstep.v4;

import dev.lockstep.AbstractDistLock;
import dev.lockstep.AbstractLocks;
import dev.lockstep.DistLock;
import dev.lockstep.Guarantee;
import dev.lockstep.Lease;
import dev.lockstep.LeaseLoss;
import dev.lockstep.LockOptions;
import dev.lockstep.LuaScript;
import dev.lockstep.v3.ReentrantHashLocks;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import redis.clients.jedis.UnifiedJedis;

/**
 * Stage 4: stage 3's reentrant hash, plus a {@link Watchdog}. A lock taken without an explicit
 * lease gets the watchdog timeout and is renewed every third of it while held, so work may take
 * as long as it takes; a crashed holder stops renewing and its lease runs out.
 *
 * <p>Unlike Redisson, the holder is told when a lease is lost (Redis unreachable too long, or
 * the field gone): {@link #isHeldByCurrentThread()} turns false, {@link DistLock#onLeaseLost}
 * listeners fire once, and {@code unlock()} throws saying when the lease was lost.
 */
public final class WatchdogLocks extends AbstractLocks {

    private static final LuaScript LOCK = LuaScript.load(ReentrantHashLocks.class, "lock.lua");
    private static final LuaScript UNLOCK = LuaScript.load(ReentrantHashLocks.class, "unlock.lua");
    private static final LuaScript RENEW = LuaScript.load(WatchdogLocks.class, "renew.lua");

    private final Watchdog watchdog = new Watchdog(clientId().substring(0, 8));

    /** A client of the stage-4 lock over {@code redis}. */
    public WatchdogLocks(UnifiedJedis redis, LockOptions options) {
        super(redis, options, EnumSet.of(Guarantee.LIVENESS_AFTER_CRASH, Guarantee.OWNER_ONLY_RELEASE,
                Guarantee.REENTRANT, Guarantee.LEASE_RENEWAL, Guarantee.LEASE_LOSS_SIGNAL));
    }

    @Override
    protected DistLock newLock(String name) {
        return new WatchdogLock(name);
    }

    /** Stops renewing: held locks run out as after a crash. */
    @Override
    public void close() {
        super.close();
        watchdog.close();
    }

    private final class WatchdogLock extends AbstractDistLock {

        private final Map<Long, Watchdog.Hold> holds = new ConcurrentHashMap<>();

        WatchdogLock(String name) {
            super(name, WatchdogLocks.this);
        }

        /** No lease given: the watchdog's, renewed while held. */
        @Override
        protected Duration defaultLease() {
            return options().watchdogTimeout();
        }

        @Override
        protected boolean tryAcquireOnce(Lease lease) {
            long sent = System.nanoTime();
            String owner = threadOwner();
            if (LOCK.run(redis(), List.of(key()), List.of(Long.toString(lease.millis()), owner)) != null) {
                return false;
            }
            long thread = Thread.currentThread().getId();
            Watchdog.Hold hold = holds.get(thread);
            if (hold != null && hold.isHeld()) {
                hold.extend(sent);
            } else {
                holds.put(thread, watchdog.watch(sent, lease, () -> renew(owner, lease.millis()),
                        lostAt -> signalLeaseLost(new LeaseLoss(name(), thread, lostAt,
                                "no renewal reached Redis within the " + lease.millis() + " ms lease"))));
            }
            return true;
        }

        private boolean renew(String owner, long leaseMillis) {
            return Long.valueOf(1).equals(RENEW.run(redis(), List.of(key()), List.of(Long.toString(leaseMillis), owner)));
        }

        @Override
        protected void release() {
            long thread = Thread.currentThread().getId();
            Watchdog.Hold hold = holds.get(thread);
            if (hold != null && hold.lostAt() != null) {
                holds.remove(thread);
                throw new IllegalMonitorStateException("lock '" + name() + "': this thread's lease was lost at "
                        + hold.lostAt() + ", so another client may hold it now");
            }
            Object released = UNLOCK.run(redis(), List.of(key()), List.of(threadOwner()));
            if (released == null || Long.valueOf(1).equals(released)) {
                if (hold != null) {
                    hold.stop();
                    holds.remove(thread);
                }
            }
            if (released == null) {
                throw new IllegalMonitorStateException("lock '" + name() + "' is not held by this thread");
            }
        }

        /** Local and instant: held from acquisition until the last unlock or the moment the lease is lost. */
        @Override
        public boolean isHeldByCurrentThread() {
            Watchdog.Hold hold = holds.get(Thread.currentThread().getId());
            return hold != null && hold.isHeld();
        }
    }
}
