package dev.lockstep.zookeeper;

import dev.lockstep.Guarantee;
import dev.lockstep.LeaseLoss;
import dev.lockstep.LockOptions;
import dev.lockstep.Locks;
import dev.lockstep.internal.Args;
import java.time.Instant;
import java.util.EnumSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.retry.ExponentialBackoffRetry;

/**
 * Locks on a ZooKeeper ensemble: the consensus-backed alternative to a Redis lock. Each lock is
 * Curator's mutex recipe (one ephemeral sequential node per contender; the lowest holds, the next
 * watches it). There is no per-lock lease: a hold lasts as long as the client's session, which the
 * ensemble ends {@link LockOptions#watchdogTimeout()} after the client's last heartbeat, and a
 * write counts only once a majority of the servers has it, so losing one server loses no hold.
 */
public final class ZooKeeperLocks implements Locks {

    /** Where every lock's nodes live: {@code /lockstep/locks/NAME}. */
    static final String ROOT = "/lockstep/locks/";

    /** What a hold that outlived its session is told: the reason of its {@link LeaseLoss}. */
    static final String SESSION_ENDED = "the ZooKeeper session ended, and with it the lock node";

    private static final Set<Guarantee> GUARANTEES = EnumSet.of(Guarantee.LIVENESS_AFTER_CRASH,
            Guarantee.OWNER_ONLY_RELEASE, Guarantee.REENTRANT, Guarantee.FAILOVER_SAFE, Guarantee.FENCED);

    private final CuratorFramework curator;
    private final LockOptions options;
    private final String clientId = UUID.randomUUID().toString();
    private final Map<String, ZooKeeperLock> locks = new ConcurrentHashMap<>();
    private volatile boolean closed;

    /**
     * A client of the ensemble at {@code connectString} ({@code host:port,host:port,...}). Its
     * session timeout is {@code options.watchdogTimeout()}: the ensemble may shorten or lengthen it
     * to its own bounds. Connects in the background; the first lock call waits for it.
     */
    public ZooKeeperLocks(String connectString, LockOptions options) {
        Args.name(connectString, "connectString");
        this.options = Objects.requireNonNull(options, "options must not be null");
        int sessionMillis = (int) Math.min(Integer.MAX_VALUE, options.watchdogTimeout().toMillis());
        this.curator = CuratorFrameworkFactory.builder()
                .connectString(connectString)
                .sessionTimeoutMs(sessionMillis)
                .connectionTimeoutMs(Math.max(1_000, sessionMillis))
                .retryPolicy(new ExponentialBackoffRetry(100, 5))
                .build();
        curator.getConnectionStateListenable().addListener((client, state) -> {
            if (state == ConnectionState.LOST) {
                sessionLost();
            }
        });
        curator.start();
    }

    @Override
    public ZooKeeperLock get(String name) {
        Args.name(name, "name");
        if (closed) {
            throw new IllegalStateException("this Locks is closed; cannot get lock '" + name + "'");
        }
        return locks.computeIfAbsent(name, n -> new ZooKeeperLock(n, curator, clientId, options.observer()));
    }

    @Override
    public String clientId() {
        return clientId;
    }

    @Override
    public Set<Guarantee> guarantees() {
        return GUARANTEES;
    }

    /** The session ended: the ensemble deleted every node of this client, so every hold is gone. */
    private void sessionLost() {
        Instant now = Instant.now();
        locks.values().forEach(lock -> lock.sessionLost(now));
    }

    /** Closes the session: the ensemble deletes this client's nodes at once, which ends its holds. */
    @Override
    public void close() {
        closed = true;
        curator.close();
    }
}
