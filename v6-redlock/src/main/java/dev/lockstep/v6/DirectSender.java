package dev.lockstep.v6;

import dev.lockstep.v6.FanOut.Request;
import redis.clients.jedis.Connection;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.util.Pool;

/**
 * The usual way to one node: the calling thread writes the request on a pooled connection of its
 * own and later reads the reply itself, so a round over N nodes is N writes, then N reads, and no
 * other thread has to wake up. A reply that does not come in time leaves the connection, and the
 * barrier behind it, to the owner's {@link OwnerQueue}: the request may still run.
 *
 * <p>Borrowing may open a connection, and opening one to a stalled node takes the client's socket
 * timeout: a pool that keeps idle connections spares the calling threads that wait.
 */
final class DirectSender {

    private final Pool<Connection> pool;
    private final OwnerQueue queue;

    DirectSender(Pool<Connection> pool, OwnerQueue queue) {
        this.pool = pool;
        this.queue = queue;
    }

    /** Sends {@code request} now; its reply counts only if it comes by {@code deadline}. */
    Call send(Request request, long deadline) {
        Connection connection;
        try {
            connection = pool.getResource();
        } catch (JedisException e) {
            return Call.done(new Reply.Failed(e));
        }
        try {
            request.send(connection);
        } catch (JedisException e) {
            discard(connection);
            return Call.done(new Reply.Failed(e));
        }
        return () -> read(connection, request, deadline);
    }

    private Reply read(Connection connection, Request request, long deadline) {
        int socketTimeout = connection.getSoTimeout();
        Reply reply;
        try {
            // Rounded up, so the read never gives up before the deadline; never 0, which to a socket means no timeout.
            long millisLeft = (deadline - System.nanoTime() + 999_999) / 1_000_000;
            connection.setSoTimeout((int) Math.max(1, millisLeft));
            reply = new Reply.Answered(request.read(connection));
        } catch (JedisConnectionException e) {
            if (Barrier.timedOut(e)) {
                // Dropping the connection can mean opening another to the stalled node: the queue's job too.
                queue.enqueue(request.owner(), () -> {
                    discard(connection);
                    queue.awaitAnswer();
                });
            } else {
                discard(connection);
            }
            return new Reply.Failed(e);
        } catch (JedisException e) {
            // An error reply: the connection itself is fine.
            reply = new Reply.Failed(e);
        }
        connection.setSoTimeout(socketTimeout);
        connection.close();
        return reply;
    }

    /** Closes a broken connection; the pool replaces it, and a failure to do so is the pool's to report later. */
    private static void discard(Connection connection) {
        try {
            connection.close();
        } catch (JedisException e) {
            // The connection is gone either way.
        }
    }
}
