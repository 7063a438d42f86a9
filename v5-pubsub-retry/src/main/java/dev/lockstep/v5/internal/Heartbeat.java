package dev.lockstep.v5.internal;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.Connection;
import redis.clients.jedis.exceptions.JedisException;

/**
 * Whether a subscription connection is alive, and cutting it when it is not. A half-open socket
 * (the peer gone without a FIN or RST, such as one that died idle in the pool) never fails a read
 * by itself, so waiters check while they sleep: a connection silent for a while gets a probe,
 * and one that leaves a probe or its first {@code SUBSCRIBE} unanswered that long is cut, so
 * that its read loop reconnects. A connection that carries messages is never probed. Guarded by the
 * subscription's lock.
 */
final class Heartbeat {

    private static final Logger log = LoggerFactory.getLogger(Heartbeat.class);

    private final String connectionName;
    private Connection connection;
    /** When the request still unanswered was sent (the first SUBSCRIBE, or a probe); 0 when none is. */
    private long probeSentAt;
    private long lastHeardAt;

    Heartbeat(String connectionName) {
        this.connectionName = connectionName;
    }

    /** A new connection is opening: nothing unanswered yet, and silence counts from now. */
    void opening() {
        probeSentAt = 0;
        lastHeardAt = System.nanoTime();
    }

    /** {@code own} is the connection to cut, and its first SUBSCRIBE, which must be answered, goes out next. */
    void connected(Connection own) {
        connection = own;
        probeSentAt = System.nanoTime();
    }

    /** The connection is gone: nothing to cut. */
    void closed() {
        connection = null;
    }

    /** Redis answered the probe. */
    void answered() {
        probeSentAt = 0;
        heard();
    }

    /** Redis said something. */
    void heard() {
        lastHeardAt = System.nanoTime();
    }

    /**
     * After {@code patienceNanos} of waiting: cuts a connection that left its probe unanswered that
     * long, or sends {@code probe} on one silent that long (unless it is still {@code opening}).
     */
    void check(long patienceNanos, boolean opening, Runnable probe) {
        long now = System.nanoTime();
        if (probeSentAt != 0) {
            if (now - probeSentAt >= patienceNanos) {
                log.debug("subscription connection {} did not answer in time; reconnecting", connectionName);
                cut();
            }
            return;
        }
        if (opening || now - lastHeardAt < patienceNanos) {
            return;
        }
        try {
            probeSentAt = now;
            probe.run();
        } catch (JedisException e) {
            cut();
        }
    }

    /** Closes the connection under the read loop, which then reconnects. */
    void cut() {
        if (connection != null) {
            try {
                connection.forceDisconnect();
            } catch (Exception e) {
                // Closed either way.
            }
        }
    }
}
