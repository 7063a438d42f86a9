package dev.lockstep.shedlock;

import dev.lockstep.Locks;
import dev.lockstep.internal.Args;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import net.javacrumbs.shedlock.core.ExtensibleLockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;

/**
 * ShedLock's {@code LockProvider} over a Lockstep client: a scheduled job runs while this node
 * holds the lock called {@code keyPrefix + name}, taken for {@code lockAtMostFor} as a
 * {@link dev.lockstep.LockHold} that belongs to no thread, so ShedLock may unlock it from any thread.
 *
 * <pre>{@code
 * LockProvider provider = new LockstepLockProvider(new PubSubLocks(redis, LockOptions.defaults()));
 * }</pre>
 */
public final class LockstepLockProvider implements ExtensibleLockProvider {

    /** The prefix of every lock name unless another is given: ShedLock's names are short and may clash. */
    public static final String DEFAULT_KEY_PREFIX = "shedlock:";

    private final Locks locks;
    private final String keyPrefix;

    /** A provider whose locks are called {@value #DEFAULT_KEY_PREFIX} and the job's name. */
    public LockstepLockProvider(Locks locks) {
        this(locks, DEFAULT_KEY_PREFIX);
    }

    /** A provider whose locks are called {@code keyPrefix} and the job's name; the prefix may be empty. */
    public LockstepLockProvider(Locks locks, String keyPrefix) {
        this.locks = Objects.requireNonNull(locks, "locks must not be null");
        this.keyPrefix = Objects.requireNonNull(keyPrefix, "keyPrefix must not be null (use \"\" for none)");
    }

    /**
     * One attempt, never a wait (ShedLock skips a run whose lock is taken): the lock for
     * {@code lockAtMostFor}, or empty when another node holds it. ShedLock takes any non-negative
     * {@code lockAtMostFor}; one under 10 ms, the shortest lease a lock takes, holds for 10 ms.
     *
     * @throws NullPointerException when {@code lockConfiguration} is null
     */
    @Override
    public Optional<SimpleLock> lock(LockConfiguration lockConfiguration) {
        Objects.requireNonNull(lockConfiguration, "lockConfiguration must not be null");
        try {
            return locks.get(keyPrefix + lockConfiguration.getName())
                    .tryAcquire(Duration.ZERO, atLeastShortest(lockConfiguration.getLockAtMostFor()))
                    .map(hold -> new HeldLock(lockConfiguration, hold));
        } catch (InterruptedException e) {
            // A single attempt does not wait, so this is a shutdown in progress: take nothing, keep the flag.
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    /** {@code lease}, or the shortest lease a lock takes when it is shorter. */
    static Duration atLeastShortest(Duration lease) {
        return lease.compareTo(Args.MIN_LEASE) < 0 ? Args.MIN_LEASE : lease;
    }

    /** The lock name a job called {@code jobName} takes, for operators reading Redis. */
    public String lockName(String jobName) {
        return keyPrefix + Objects.requireNonNull(jobName, "jobName must not be null");
    }
}
