package dev.lockstep.integration;

import dev.lockstep.Locks;
import dev.lockstep.internal.Args;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.springframework.integration.support.locks.DistributedLock;
import org.springframework.integration.support.locks.ExpirableLockRegistry;
import org.springframework.integration.support.locks.RenewableLockRegistry;

/**
 * Spring Integration's {@code LockRegistry} over a Lockstep client: {@code obtain(key)} is the
 * lock called {@code keyPrefix + key}, so every registry on the same Redis and prefix shares it.
 * Locks taken without a ttl are renewed by the client's watchdog; {@link #renewLock} sets a fixed one.
 *
 * <pre>{@code
 * LockRegistry<DistributedLock> registry = new LockstepLockRegistry(new PubSubLocks(redis, LockOptions.defaults()));
 * }</pre>
 */
public final class LockstepLockRegistry
        implements ExpirableLockRegistry<DistributedLock>, RenewableLockRegistry<DistributedLock> {

    /** The prefix of every lock name unless another is given, so registry keys do not clash with other keys. */
    public static final String DEFAULT_KEY_PREFIX = "spring-integration:";
    /** The lease {@link #renewLock(Object)} sets unless another is given: Spring's Redis registry's default. */
    public static final Duration DEFAULT_RENEWAL = Duration.ofSeconds(60);

    private final Locks locks;
    private final String keyPrefix;
    private final Duration renewal;
    private final ConcurrentMap<String, LockstepDistributedLock> cache = new ConcurrentHashMap<>();

    /** A registry with the default prefix ({@value #DEFAULT_KEY_PREFIX}) and renewal (60 s). */
    public LockstepLockRegistry(Locks locks) {
        this(locks, DEFAULT_KEY_PREFIX, DEFAULT_RENEWAL);
    }

    /**
     * A registry whose locks are called {@code keyPrefix} (may be empty) and the key, and whose
     * {@link #renewLock(Object)} sets {@code renewal}.
     *
     * @throws NullPointerException     when an argument is null
     * @throws IllegalArgumentException when {@code renewal} is outside 10 ms to 365 days
     */
    public LockstepLockRegistry(Locks locks, String keyPrefix, Duration renewal) {
        this.locks = Objects.requireNonNull(locks, "locks must not be null");
        this.keyPrefix = Objects.requireNonNull(keyPrefix, "keyPrefix must not be null (use \"\" for none)");
        this.renewal = Args.within(renewal, Args.MIN_LEASE, Args.MAX_LEASE, "renewal");
    }

    /**
     * The lock for {@code lockKey}, a String: the same adapter for the same key until
     * {@link #expireUnusedOlderThan} drops it.
     *
     * @throws NullPointerException     when {@code lockKey} is null
     * @throws IllegalArgumentException when {@code lockKey} is not a String, or is blank
     * @throws IllegalStateException    when the client is closed
     */
    @Override
    public DistributedLock obtain(Object lockKey) {
        String key = keyOf(lockKey);
        return cache.compute(key, (k, cached) -> cached != null ? cached.touched()
                : new LockstepDistributedLock(locks.get(keyPrefix + k)));
    }

    /** Drops the cached locks last obtained more than {@code age} ms ago that no thread of this registry holds. */
    @Override
    public void expireUnusedOlderThan(long age) {
        long now = System.currentTimeMillis();
        // A lock dropped while a thread obtains it is harmless: the lock itself lives in Redis and in the client.
        cache.values().removeIf(lock -> lock.unusedSince(now - age));
    }

    /**
     * Sets the remaining lease of this thread's hold of {@code lockKey} to the registry's renewal (default 60 s).
     *
     * @throws IllegalMonitorStateException when this thread does not hold the lock, or Redis no longer has its hold
     */
    @Override
    public void renewLock(Object lockKey) {
        renewLock(lockKey, renewal);
    }

    /**
     * Sets the remaining lease of this thread's hold of {@code lockKey} to {@code ttl}; from then on
     * the watchdog no longer renews it.
     *
     * @throws NullPointerException          when an argument is null
     * @throws IllegalArgumentException      when {@code lockKey} is not a String, or {@code ttl} is not positive or
     *                                       over 365 days (under 10 ms, 10 ms is set: the shortest lease a lock takes)
     * @throws IllegalMonitorStateException  when this thread does not hold the lock, or Redis no longer has its hold
     */
    @Override
    public void renewLock(Object lockKey, Duration ttl) {
        Objects.requireNonNull(ttl, "ttl must not be null");
        locks.get(keyPrefix + keyOf(lockKey)).extend(LockstepDistributedLock.atLeastShortest(ttl));
    }

    /** How many locks are cached, for tests and metrics. */
    public int cachedLocks() {
        return cache.size();
    }

    private static String keyOf(Object lockKey) {
        Objects.requireNonNull(lockKey, "lockKey must not be null");
        if (!(lockKey instanceof String key)) {
            throw new IllegalArgumentException("lockKey must be a String, was a " + lockKey.getClass().getName());
        }
        if (key.isBlank()) {
            throw new IllegalArgumentException("lockKey must not be blank");
        }
        return key;
    }
}
