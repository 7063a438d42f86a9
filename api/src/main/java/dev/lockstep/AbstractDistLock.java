package dev.lockstep;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisConnectionException;

/**
 * The plumbing every stage shares, so a stage's class holds only its idea: argument checks,
 * the {@link java.util.concurrent.locks.Lock} adapters, the spin-wait loop, and a per-thread
 * record of what this process believes it holds.
 *
 * <p>A stage implements one attempt ({@link #tryAcquireOnce}) and one release ({@link #release}).
 */
public abstract class AbstractDistLock implements DistLock {

    private static final long FOREVER = -1;

    private final String name;
    private final AbstractLocks client;
    private final Map<Long, String> tokens = new ConcurrentHashMap<>();

    /** The lock called {@code name}, owned by {@code client}. */
    protected AbstractDistLock(String name, AbstractLocks client) {
        this.name = Args.name(name, "name");
        this.client = client;
    }

    /** One attempt to take the lock for {@code leaseMillis}; true when taken. */
    protected abstract boolean tryAcquireOnce(long leaseMillis);

    /** Releases the current thread's hold; from v2 on, throws {@link IllegalMonitorStateException} for a non-owner. */
    protected abstract void release();

    @Override
    public final String name() {
        return name;
    }

    /** The Redis key: the name in a hash tag, so every key and channel of one lock shares a Cluster slot. */
    protected final String key() {
        return "{" + name + "}";
    }

    /** The Redis this lock talks to. */
    protected final UnifiedJedis redis() {
        return client.redis();
    }

    /** Who is asking: this client and this thread, as Redisson writes it ({@code clientId:threadId}). */
    protected final String threadOwner() {
        return client.clientId() + ":" + Thread.currentThread().getId();
    }

    /** Notes that the current thread now holds the lock under {@code token}. */
    protected final void remember(String token) {
        tokens.put(Thread.currentThread().getId(), token);
    }

    /** The token the current thread holds the lock under, or null. */
    protected final String token() {
        return tokens.get(Thread.currentThread().getId());
    }

    /** Forgets the current thread's token. */
    protected final void forget() {
        tokens.remove(Thread.currentThread().getId());
    }

    /** Local bookkeeping only: true from a successful acquisition until this thread's unlock, even if the lease ran out. */
    @Override
    public boolean isHeldByCurrentThread() {
        return token() != null;
    }

    @Override
    public final void lock() {
        lock(null);
    }

    @Override
    public final void lock(Duration lease) {
        long leaseMillis = leaseMillis(lease);
        boolean interrupted = false;
        while (true) {
            try {
                acquire(leaseMillis, FOREVER);
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public final void lockInterruptibly() throws InterruptedException {
        acquire(leaseMillis(null), FOREVER);
    }

    @Override
    public final boolean tryLock() {
        return attempt(leaseMillis(null));
    }

    @Override
    public final boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
        if (unit == null) {
            throw new NullPointerException("unit must not be null");
        }
        return acquire(leaseMillis(null), Math.max(0, unit.toNanos(time)));
    }

    @Override
    public final boolean tryLock(Duration wait, Duration lease) throws InterruptedException {
        Args.notNegative(wait, "wait");
        return acquire(leaseMillis(lease), wait.toNanos());
    }

    @Override
    public final void unlock() {
        ask("unlock", () -> {
            release();
            return null;
        });
    }

    /**
     * Takes the lock, waiting up to {@code waitNanos} ({@code -1}: forever). This is the spin
     * loop: try, sleep one spin interval, try again. Later stages replace the sleeping.
     */
    protected boolean acquire(long leaseMillis, long waitNanos) throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException("interrupted before acquiring lock '" + name + "'");
        }
        long deadline = System.nanoTime() + waitNanos;
        long spinNanos = client.options().spinInterval().toNanos();
        while (!attempt(leaseMillis)) {
            long left = waitNanos == FOREVER ? spinNanos : deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            TimeUnit.NANOSECONDS.sleep(Math.min(left, spinNanos));
        }
        return true;
    }

    /** One attempt, with a connection failure turned into a {@link LockException} naming this lock. */
    protected final boolean attempt(long leaseMillis) {
        return ask("acquire", () -> tryAcquireOnce(leaseMillis));
    }

    /** Runs {@code call} against Redis; a connection failure becomes a {@link LockException} naming this lock. */
    protected final <T> T ask(String operation, Supplier<T> call) {
        try {
            return call.get();
        } catch (JedisConnectionException e) {
            throw new LockException(name, operation, e);
        }
    }

    /** {@code lease} in milliseconds, or the configured default lease when null. */
    protected long leaseMillis(Duration lease) {
        Duration effective = Args.lease(lease) == null ? client.options().lease() : lease;
        return Math.max(1, effective.toMillis());
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + name + "]";
    }
}
