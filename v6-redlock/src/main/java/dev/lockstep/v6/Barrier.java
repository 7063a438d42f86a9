package dev.lockstep.v6;

import java.net.SocketTimeoutException;
import java.util.function.BooleanSupplier;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisException;

/**
 * The barrier behind a request a node left unanswered: such a request may still run later (a
 * stalled Redis reads it when it wakes), so what its owner sends the node next must wait until
 * the node answers a {@code PING} sent after it, which it answers only after running it.
 */
final class Barrier {

    private Barrier() {
    }

    /** Whether {@code e} leaves the request perhaps on its way or waiting in the node, not refused or lost with the server. */
    static boolean timedOut(JedisException e) {
        return e instanceof JedisConnectionException && e.getCause() instanceof SocketTimeoutException;
    }

    /**
     * Returns once {@code node} has answered a {@code PING}, or refused or dropped the connection
     * (a server that did that no longer holds the request); on a timeout it asks again. Ends early
     * only when {@code closed} says so.
     */
    static void awaitAnswer(UnifiedJedis node, BooleanSupplier closed) {
        while (!closed.getAsBoolean()) {
            try {
                node.ping();
                return;
            } catch (JedisException e) {
                if (!timedOut(e)) {
                    return;
                }
            }
        }
    }
}
