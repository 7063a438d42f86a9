package dev.lockstep.lock4j;

import com.baomidou.lock.executor.AbstractLockExecutor;
import dev.lockstep.LockHold;
import dev.lockstep.Locks;
import java.time.Duration;
import java.util.Objects;

/**
 * lock4j's {@code LockExecutor} over a Lockstep client: each acquisition is a {@link LockHold}
 * that belongs to no thread, so lock4j's {@code LockInfo} may be released from any thread. An
 * {@code expire} of -1 (or any non-positive one) means a lease the client's watchdog renews.
 *
 * <pre>{@code
 * lockTemplate.setExecutors(List.of(new LockstepLockExecutor(new PubSubLocks(redis, LockOptions.defaults()))));
 * }</pre>
 */
public final class LockstepLockExecutor extends AbstractLockExecutor<LockHold> {

    private final Locks locks;

    /** An executor whose locks are {@code locks}' locks, named by lock4j's keys as they are. */
    public LockstepLockExecutor(Locks locks) {
        this.locks = Objects.requireNonNull(locks, "locks must not be null");
    }

    /** True: lock4j then passes an {@code expire} of -1 through, which this executor renews. */
    @Override
    public boolean renewal() {
        return true;
    }

    /**
     * Waits at most {@code acquireTimeout} ms for the lock called {@code lockKey}, held for
     * {@code expire} ms (non-positive: renewed by the watchdog); null when not taken in time, as lock4j expects.
     * {@code lockValue} is not needed: the hold itself is the owner.
     *
     * @throws NullPointerException     when {@code lockKey} is null
     * @throws IllegalArgumentException when {@code lockKey} is blank, or {@code expire} is positive but under 10 ms
     */
    @Override
    public LockHold acquire(String lockKey, String lockValue, long expire, long acquireTimeout) {
        Duration lease = expire > 0 ? Duration.ofMillis(expire) : null;
        try {
            return locks.get(lockKey).tryAcquire(Duration.ofMillis(Math.max(0, acquireTimeout)), lease).orElse(null);
        } catch (InterruptedException e) {
            // lock4j's interface cannot throw it: keep the flag, and LockTemplate's next pause throws it as a LockException.
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /**
     * Releases {@code lockInstance} from any thread; false when it is null, was released already,
     * or was lost (its lease ran out, or Redis no longer had it).
     */
    @Override
    public boolean releaseLock(String key, String value, LockHold lockInstance) {
        if (lockInstance == null) {
            return false;
        }
        try {
            lockInstance.release();
            return true;
        } catch (IllegalMonitorStateException notHeld) {
            return false;
        }
    }
}
