package dev.lockstep;

import java.util.Collections;
import java.util.EnumSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import redis.clients.jedis.UnifiedJedis;

/** What every stage's {@link Locks} shares: the client id, one lock object per name, and the closed state. */
public abstract class AbstractLocks implements Locks {

    private final List<UnifiedJedis> nodes;
    private final LockOptions options;
    private final Set<Guarantee> guarantees;
    private final String clientId = UUID.randomUUID().toString();
    private final ConcurrentMap<String, DistLock> locks = new ConcurrentHashMap<>();
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
        this.options = Objects.requireNonNull(options, "options must not be null");
        this.guarantees = Collections.unmodifiableSet(guarantees.isEmpty()
                ? EnumSet.noneOf(Guarantee.class) : EnumSet.copyOf(guarantees));
    }

    /** Creates the stage's lock object for {@code name}; called once per name. */
    protected abstract DistLock newLock(String name);

    @Override
    public final DistLock get(String name) {
        Args.name(name, "name");
        if (closed) {
            throw new IllegalStateException("this Locks is closed; cannot get lock '" + name + "'");
        }
        return locks.computeIfAbsent(name, this::newLock);
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
    public final LockOptions options() {
        return options;
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + clientId + "]";
    }
}
