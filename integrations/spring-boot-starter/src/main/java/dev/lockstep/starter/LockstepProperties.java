package dev.lockstep.starter;

import dev.lockstep.LockObserver;
import dev.lockstep.LockOptions;
import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.boot.context.properties.bind.Name;

/**
 * Which lock the service takes, and how ({@code lockstep.*}). Checked when bound: a bad value stops
 * the application at start-up with a message that names the property.
 *
 * @param kind            which lock: {@code v1-setnx} to {@code v7-fencing}, {@code fair}, {@code read-write}
 *                        or {@code multi-name}; default {@code v5-pubsub-retry}
 * @param lease           the fixed lease of stages 1-3 (and of a lock taken with no lease where no watchdog
 *                        renews it); default the library's 30 s
 * @param watchdogTimeout from stage 4 on, the lease the watchdog renews every third of; default 30 s
 * @param defaultWait     {@code lockstep.wait}: how long {@link Locked} waits for a lock when the annotation names no wait; default 10 s
 * @param keyPrefix       prepended to every {@link Locked} lock name; default none
 * @param replicaSync     how many replicas must acknowledge an acquisition, and for how long to wait for them
 * @param redlock         for {@code v6-redlock}: the other independent masters
 * @param redis           where Redis is; when neither its host nor its port is set, {@code spring.data.redis.*} says
 */
@ConfigurationProperties("lockstep")
public record LockstepProperties(@DefaultValue("v5-pubsub-retry") String kind, Duration lease, Duration watchdogTimeout,
                                 @Name("wait") @DefaultValue("10s") Duration defaultWait, String keyPrefix,
                                 @DefaultValue ReplicaSync replicaSync, @DefaultValue Redlock redlock,
                                 @DefaultValue Redis redis) {

    /** Checks every value, so a typo fails the start-up and not the first order. */
    public LockstepProperties {
        LockKind.of(kind);
        positive(lease, "lockstep.lease");
        positive(watchdogTimeout, "lockstep.watchdog-timeout");
        if (defaultWait == null || defaultWait.isNegative()) {
            throw new IllegalArgumentException("lockstep.wait must be zero or positive, was " + defaultWait);
        }
        keyPrefix = keyPrefix == null ? "" : keyPrefix;
    }

    /** The kind {@link #kind()} names. */
    public LockKind lockKind() {
        return LockKind.of(kind);
    }

    /** The library's options with these values, telling {@code observer} what the locks do. */
    public LockOptions options(LockObserver observer) {
        LockOptions options = LockOptions.defaults().withObserver(observer)
                .withReplicaSync(replicaSync.replicas(), replicaSync.timeout());
        if (lease != null) {
            options = options.withLease(lease);
        }
        return watchdogTimeout == null ? options : options.withWatchdogTimeout(watchdogTimeout);
    }

    private static void positive(Duration value, String property) {
        if (value != null && (value.isNegative() || value.isZero())) {
            throw new IllegalArgumentException(property + " must be positive, was " + value);
        }
    }

    /**
     * Replica acknowledgements ({@code WAIT}) an acquisition needs before it counts.
     *
     * @param replicas how many replicas; default 0: none
     * @param timeout  how long to wait for them; default 1 s
     */
    public record ReplicaSync(@DefaultValue("0") int replicas, @DefaultValue("1s") Duration timeout) {

        /** Checks the count: a negative one is a typo. */
        public ReplicaSync {
            if (replicas < 0) {
                throw new IllegalArgumentException("lockstep.replica-sync.replicas must not be negative, was " + replicas);
            }
        }
    }

    /**
     * RedLock's masters besides the main connection.
     *
     * @param nodes {@code host:port} of each other master, with the main connection's credentials; default none
     */
    public record Redlock(@DefaultValue List<String> nodes) {
    }

    /**
     * The Redis connection the locks use; unset fields take Jedis's defaults.
     *
     * @param host     the server's host; default {@code localhost}
     * @param port     its port; default 6379
     * @param username the ACL user; default the default user
     * @param password the password; default none
     * @param database the database index; default 0
     * @param timeout  how long a command may take before the client gives up; default 2 s
     * @param ssl      whether to connect over TLS; default false
     */
    public record Redis(String host, Integer port, String username, String password, Integer database,
                        Duration timeout, Boolean ssl) {

        /** Whether the application set this connection; when not, {@code spring.data.redis.*} says where Redis is. */
        public boolean isSet() {
            return host != null || port != null;
        }
    }
}
