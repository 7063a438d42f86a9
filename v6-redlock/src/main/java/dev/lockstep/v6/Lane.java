package dev.lockstep.v6;

import dev.lockstep.v6.FanOut.Reply;
import dev.lockstep.v6.FanOut.Request;
import dev.lockstep.v6.FanOut.WhenLate;
import java.net.SocketTimeoutException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import redis.clients.jedis.Connection;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.util.Pool;

/**
 * How the fan-out talks to one node. Normally the calling thread writes the request on a pooled
 * connection of its own and later reads the reply itself: a round over N nodes is N writes, then
 * N reads, and no other thread has to wake up.
 *
 * <p>A request left unanswered may still run later: a stalled Redis reads it when it wakes. What
 * its owner sends the node next must run after it, or an undo could land before the late grant
 * it should take back. So from then on that owner's requests to the node queue on the node's
 * lane, one thread that first waits until the node answers a {@code PING} (sent after the
 * unanswered request, so answered after it ran) and then sends them in order. Once nothing of
 * the owner's is left on the lane, it sends directly again; other owners never wait for it. A
 * client that is not a {@link RedisClient} has no pool to borrow from, and all its requests take
 * the lane.
 *
 * <p>A node that stays stalled would let the lane grow by every round of every waiting thread,
 * so it takes at most {@link #CAPACITY} requests: one more fails at once, which the round counts
 * as that node failing. An undo or unlock refused so leaves that node's grant to its lease. Besides
 * requests the lane holds only the waits for an answer, at most one per owner.
 *
 * <p>Borrowing may open a connection, and opening one to a stalled node takes the client's
 * socket timeout: a pool that keeps idle connections spares the calling threads that wait.
 */
final class Lane implements AutoCloseable {

    /** How many requests may wait on one lane, or run there: rounds of many threads, not a stall's worth. */
    static final int CAPACITY = 128;

    private final UnifiedJedis node;
    private final Pool<Connection> pool;
    private final ThreadPoolExecutor thread;
    /** Tasks on the lane per owner, queued or running: while an owner has any, its requests queue behind them. */
    private final ConcurrentMap<String, Integer> queuedByOwner = new ConcurrentHashMap<>();
    /** Requests on the lane, queued or running, at most {@link #CAPACITY}. */
    private final AtomicInteger requests = new AtomicInteger();

    Lane(UnifiedJedis node, String threadName) {
        this.node = node;
        this.pool = node instanceof RedisClient client ? client.getPool() : null;
        // At most one thread, and only while there is work: most clients never start it.
        this.thread = new ThreadPoolExecutor(0, 1, 1, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), runnable -> {
            Thread lane = new Thread(runnable, threadName);
            lane.setDaemon(true);
            return lane;
        });
    }

    /** A request on its way: its reply, read by the deadline it was sent with. */
    interface Call {

        /** The reply, or why there is none; returns by the deadline. */
        Reply await();
    }

    /** Sends {@code request}; its reply counts only if it comes by {@code deadline}. */
    Call ask(Request request, long deadline, WhenLate whenLate) {
        return sendsDirectly(request) ? direct(request, deadline) : queued(request, deadline, whenLate);
    }

    /** Sends {@code request} for its effect: read by {@code deadline} if sent directly, else sent however late. */
    Call tell(Request request, long deadline) {
        if (sendsDirectly(request)) {
            return direct(request, deadline);
        }
        queued(request, deadline, WhenLate.SEND);
        return () -> new Reply(null, null);
    }

    private boolean sendsDirectly(Request request) {
        return pool != null && !queuedByOwner.containsKey(request.owner());
    }

    private Call direct(Request request, long deadline) {
        Connection connection;
        try {
            connection = pool.getResource();
        } catch (JedisException e) {
            return () -> new Reply(null, e);
        }
        try {
            request.send(connection);
        } catch (JedisException e) {
            discard(connection);
            return () -> new Reply(null, e);
        }
        return () -> read(connection, request, deadline);
    }

    private Reply read(Connection connection, Request request, long deadline) {
        int socketTimeout = connection.getSoTimeout();
        Reply reply;
        try {
            // Never 0: to a socket that means no timeout at all.
            connection.setSoTimeout((int) Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            reply = new Reply(request.read(connection), null);
        } catch (JedisConnectionException e) {
            if (timedOut(e)) {
                // Dropping the connection can mean opening another to the stalled node: the lane's job too.
                enqueue(request.owner(), () -> {
                    discard(connection);
                    awaitAnswer();
                });
            } else {
                discard(connection);
            }
            return new Reply(null, e);
        } catch (JedisException e) {
            // An error reply: the connection itself is fine.
            reply = new Reply(null, e);
        }
        connection.setSoTimeout(socketTimeout);
        connection.close();
        return reply;
    }

    /** Whether the request may still be on its way or waiting in the node, not refused or lost with the server. */
    private static boolean timedOut(JedisException e) {
        return e instanceof JedisConnectionException && e.getCause() instanceof SocketTimeoutException;
    }

    /** Closes a broken connection; the pool replaces it, and a failure to do so is the pool's to report later. */
    private static void discard(Connection connection) {
        try {
            connection.close();
        } catch (JedisException e) {
            // The connection is gone either way.
        }
    }

    private Call queued(Request request, long deadline, WhenLate whenLate) {
        if (requests.incrementAndGet() > CAPACITY) {
            requests.decrementAndGet();
            Reply full = new Reply(null, new RejectedExecutionException(
                    "not sent: " + CAPACITY + " requests already wait for this node"));
            return () -> full;
        }
        CompletableFuture<Object> reply = new CompletableFuture<>();
        boolean accepted = enqueue(request.owner(), () -> {
            try {
                if (whenLate == WhenLate.DROP && System.nanoTime() - deadline > 0) {
                    reply.completeExceptionally(new TimeoutException("dropped unsent: its round gave up on this node"));
                    return;
                }
                reply.complete(request.run(node));
            } catch (JedisException e) {
                reply.completeExceptionally(e);
                if (timedOut(e)) {
                    awaitAnswer();
                }
            } catch (RuntimeException e) {
                reply.completeExceptionally(e);
            } finally {
                requests.decrementAndGet();
            }
        });
        if (!accepted) {
            requests.decrementAndGet();
            reply.completeExceptionally(new RejectedExecutionException("not sent: the client is closed"));
        }
        return () -> awaitReply(reply, deadline);
    }

    /** How many requests are on the lane now, queued or running. */
    int requests() {
        return requests.get();
    }

    /** Queues {@code task} behind {@code owner}'s earlier ones; false when the lane is closed. */
    private boolean enqueue(String owner, Runnable task) {
        queuedByOwner.merge(owner, 1, Integer::sum);
        try {
            thread.execute(() -> {
                try {
                    task.run();
                } finally {
                    dequeue(owner);
                }
            });
            return true;
        } catch (RejectedExecutionException closed) {
            dequeue(owner);
            return false;
        }
    }

    private void dequeue(String owner) {
        queuedByOwner.computeIfPresent(owner, (key, count) -> count == 1 ? null : count - 1);
    }

    /**
     * Returns once the node has answered a {@code PING}, or refused or dropped the connection (a
     * server that did that no longer holds the request); on a timeout it asks again. Ends early
     * only when the client closes.
     */
    private void awaitAnswer() {
        while (!thread.isShutdown()) {
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

    private static Reply awaitReply(CompletableFuture<Object> reply, long deadline) {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return new Reply(reply.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS), null);
                } catch (InterruptedException e) {
                    interrupted = true;
                } catch (ExecutionException e) {
                    return new Reply(null, e.getCause());
                } catch (TimeoutException e) {
                    return new Reply(null, e);
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Stops the lane; a request stuck on a stalled node ends with its socket timeout. */
    @Override
    public void close() {
        thread.shutdownNow();
    }
}
