package dev.lockstep.internal;

import dev.lockstep.DistLock;
import dev.lockstep.Guarantee;
import dev.lockstep.LockOptions;
import dev.lockstep.Locks;
import java.util.Collections;
import java.util.EnumSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.UnifiedJedis;

/**
 * What every stage's {@link Locks} shares: the client id, its nodes and options, one lock object
 * per name ({@link LockObjects}), one lock call per pooled connection at once, and the closed state.
 */
public abstract class AbstractLocks implements Locks {

    private final List<UnifiedJedis> nodes;
    private final LockOptions options;
    private final Set<Guarantee> guarantees;
    private final String clientId = UUID.randomUUID().toString();
    private final LockObjects lockObjects = new LockObjects();
    /**
     * At most one lock call per pooled connection at once, let in first come, first served. Ten
     * thousand virtual threads asking a pool of 8 connections at once all queue inside the pool, on a
     * monitor that wakes them all whenever a connection comes back: a thread that must unlock, or the
     * watchdog that must renew, can then wait past a lease. Null when the client's pool size is unknown.
     */
    private final Semaphore calls;
    private final ThreadLocal<Boolean> inCall = new ThreadLocal<>();
    /** How long the calling thread's acquisition may queue for its turn; none: as long as it takes, uninterruptibly. */
    private final ThreadLocal<QueueLimit> queueLimit = new ThreadLocal<>();
    private volatile boolean closed;

    /** A client over {@code redis} (not owned: {@link #close()} leaves it open) that claims {@code guarantees}. */
    protected AbstractLocks(UnifiedJedis redis, LockOptions options, Set<Guarantee> guarantees) {
        this(List.of(Objects.requireNonNull(redis, "redis must not be null")), options, guarantees);
    }

    /** A client over several independent masters {@code nodes} (not owned), for quorum stages. */
    protected AbstractLocks(List<UnifiedJedis> nodes, LockOptions options, Set<Guarantee> guarantees) {
        Objects.requireNonNull(nodes, "nodes must not be null");
        if (nodes.isEmpty() || nodes.stream().anyMatch(Objects::isNull)) {
            throw new IllegalArgumentException("nodes must be a non-empty list of clients, was " + nodes);
        }
        Map<UnifiedJedis, Integer> seen = new IdentityHashMap<>();
        for (int i = 0; i < nodes.size(); i++) {
            Integer first = seen.putIfAbsent(nodes.get(i), i);
            if (first != null) {
                // One server counted twice would make a quorum out of fewer servers than it claims.
                throw new IllegalArgumentException("nodes must be distinct clients, one per master: nodes["
                        + first + "] and nodes[" + i + "] are the same client");
            }
        }
        this.nodes = List.copyOf(nodes);
        this.calls = nodes.size() == 1 && nodes.get(0) instanceof RedisClient pooled
                ? new Semaphore(Math.max(1, pooled.getPool().getMaxTotal()), true) : null;
        this.options = Objects.requireNonNull(options, "options must not be null");
        this.guarantees = Collections.unmodifiableSet(guarantees.isEmpty()
                ? EnumSet.noneOf(Guarantee.class) : EnumSet.copyOf(guarantees));
    }

    /** Creates the stage's lock object for {@code name}; called once per name. */
    protected abstract DistLock newLock(String name);

    @Override
    public DistLock get(String name) {
        Args.name(name, "name");
        return lockObject(name, name, () -> newLock(name));
    }

    /**
     * The lock object under {@code key}, named {@code name}: the one this client has, or a new one
     * from {@code create}. A stage's own key that no name can equal (a group of names, say) keeps
     * its objects apart from those {@link #get} hands out.
     */
    protected final DistLock lockObject(Object key, String name, Supplier<DistLock> create) {
        if (closed) {
            throw new IllegalStateException("this Locks is closed; cannot get lock '" + name + "'");
        }
        return lockObjects.get(key, create);
    }

    /** Called by a lock when a thread of this client took it: kept until no thread holds it. */
    final void keep(DistLock lock) {
        lockObjects.keep(lock);
    }

    /** Called by a lock when no thread of this client holds it any more. */
    final void letGo(DistLock lock) {
        lockObjects.letGo(lock);
    }

    /** How many lock objects this client has now: held ones, and ones still referenced or not yet collected. */
    public final int lockObjects() {
        return lockObjects.count();
    }

    /**
     * What this client's owners hold now, as they count it (whatever Redis says): each held lock
     * object with its owners' holds (none, for one let go meanwhile). Local and instant, for an
     * operator's view such as an endpoint.
     */
    public final Map<DistLock, List<OwnerHolds>> holds() {
        Map<DistLock, List<OwnerHolds>> holds = new LinkedHashMap<>();
        lockObjects.held().forEach(lock -> holds.put(lock, ((AbstractDistLock) lock).owners()));
        return holds;
    }

    @Override
    public final String clientId() {
        return clientId;
    }

    @Override
    public final Set<Guarantee> guarantees() {
        return guarantees;
    }

    @Override
    public void close() {
        closed = true;
    }

    /** Whether {@link #close()} was called. */
    protected final boolean isClosed() {
        return closed;
    }

    /**
     * Runs {@code call}, one lock call of the calling thread, once a pooled connection is its turn
     * (see {@link #calls}); a call made inside another runs at once. Inside {@link #acquiring}, the
     * turn is awaited no longer than the wait, and an interrupt ends the queueing.
     */
    final <T> T call(Supplier<T> call) {
        if (calls == null || inCall.get() != null) {
            return call.get();
        }
        takeTurn();
        inCall.set(Boolean.TRUE);
        try {
            return call.get();
        } finally {
            inCall.remove();
            calls.release();
        }
    }

    private void takeTurn() {
        QueueLimit limit = queueLimit.get();
        if (limit == null) {
            calls.acquireUninterruptibly();
            return;
        }
        try {
            if (!limit.bounded()) {
                calls.acquire();
            } else if (!calls.tryAcquire(limit.deadlineNanos() - System.nanoTime(), TimeUnit.NANOSECONDS)) {
                throw new LeftQueue(false);
            }
        } catch (InterruptedException e) {
            throw new LeftQueue(true);
        }
    }

    /**
     * Runs {@code acquisition}, a wait of {@code waitNanos} ({@code > 0}: bounded; else only a
     * first try, or no end), with its lock calls queueing for a connection interruptibly and, for
     * a bounded wait, until its deadline at most: a wait that ends in the queue sent nothing and
     * returns false; an interrupt there throws {@link InterruptedException}.
     */
    final boolean acquiring(long waitNanos, Acquisition acquisition) throws InterruptedException {
        // An acquisition inside another (a lock over several names) restores the outer one's limit after.
        QueueLimit outer = queueLimit.get();
        queueLimit.set(new QueueLimit(waitNanos > 0, System.nanoTime() + waitNanos));
        try {
            return acquisition.run();
        } catch (LeftQueue left) {
            if (left.interrupted) {
                throw new InterruptedException("interrupted while queued for a connection");
            }
            return false;
        } finally {
            if (outer == null) {
                queueLimit.remove();
            } else {
                queueLimit.set(outer);
            }
        }
    }

    /** An acquisition that may be interrupted. */
    @FunctionalInterface
    interface Acquisition {

        /** Acquires; true when taken. */
        boolean run() throws InterruptedException;
    }

    /** How long an acquisition's calls queue for a connection: until {@code deadlineNanos} if {@code bounded}. */
    private record QueueLimit(boolean bounded, long deadlineNanos) {
    }

    /** A call's wait for its turn ended (the wait's deadline, or an interrupt) before anything was sent. */
    private static final class LeftQueue extends RuntimeException {

        private final boolean interrupted;

        LeftQueue(boolean interrupted) {
            super(interrupted ? "interrupted while queued for a connection" : "the wait ended while queued for a connection",
                    null, false, false);
            this.interrupted = interrupted;
        }
    }

    /** The Redis every lock of a single-node client talks to. */
    protected final UnifiedJedis redis() {
        if (nodes.size() != 1) {
            throw new IllegalStateException("a client of " + nodes.size() + " nodes has no single Redis");
        }
        return nodes.get(0);
    }

    /** Every Redis this client talks to: one, or the independent masters of a quorum stage. */
    protected final List<UnifiedJedis> nodes() {
        return nodes;
    }

    /** The options this client was built with. */
    protected final LockOptions options() {
        return options;
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + clientId + "]";
    }
}
