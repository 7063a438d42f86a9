package dev.lockstep.v5.internal;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.exceptions.JedisException;

/**
 * A subscription connection's failures, logged at WARN once per cause of an outage and at DEBUG
 * when the same cause comes again, retry after retry.
 */
final class OutageLog {

    private static final Logger log = LoggerFactory.getLogger(OutageLog.class);

    private final String connectionName;
    /** The last failure logged at WARN; null once the connection is back. */
    private String lastWarned;

    OutageLog(String connectionName) {
        this.connectionName = connectionName;
    }

    /** The connection failed with {@code e}; {@code refused}: Redis said no, and no retry will change that. */
    void failed(JedisException e, boolean refused) {
        String cause = e.getClass().getSimpleName() + ": " + e.getMessage();
        boolean first;
        synchronized (this) {
            first = !cause.equals(lastWarned);
            lastWarned = cause;
        }
        String message = refused ? "subscription on {} refused by Redis ({}); its waiters fail with a LockException"
                : "subscription on {} failed ({}); waiters sleep at most a holder's lease until it is back";
        if (first) {
            log.warn(message, connectionName, cause);
        } else {
            log.debug(message, connectionName, cause);
        }
    }

    /** Redis confirmed a subscription: the next outage is news again. */
    synchronized void back() {
        lastWarned = null;
    }
}
