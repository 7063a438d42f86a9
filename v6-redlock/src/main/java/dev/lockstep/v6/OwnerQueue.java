package dev.lockstep.v6;

import dev.lockstep.internal.Daemons;
import dev.lockstep.v6.FanOut.Request;
import dev.lockstep.v6.FanOut.WhenLate;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisException;

/**
 * One node's per-owner ordered queue: a thread that sends each owner's requests in the order they
 * came, behind the {@link Barrier} of any request of theirs the node left unanswered. Other
 * owners' requests never wait for it.
 *
 * <p>A node that stays stalled would let the queue grow by every round of every waiting thread,
 * so it takes at most {@link #CAPACITY} requests: one more fails at once, which the round counts
 * as that node failing. An undo or unlock refused so leaves that node's grant to its lease.
 */
final class OwnerQueue implements AutoCloseable {

    /** How many requests may wait on one node, or run there: rounds of many threads, not a stall's worth. */
    static final int CAPACITY = 128;

    private final UnifiedJedis node;
    private final ThreadPoolExecutor thread;
    /** Tasks queued or running per owner: while an owner has any, its requests queue behind them. */
    private final ConcurrentMap<String, Integer> tasksByOwner = new ConcurrentHashMap<>();
    /** Requests queued or running, at most {@link #CAPACITY}. */
    private final AtomicInteger requests = new AtomicInteger();

    OwnerQueue(UnifiedJedis node, String threadName) {
        this.node = node;
        // At most one thread, and only while there is work: most clients never start it.
        this.thread = Daemons.onDemand(threadName);
    }

    /** Whether {@code owner} has tasks here, which its next request must follow. */
    boolean has(String owner) {
        return tasksByOwner.containsKey(owner);
    }

    /** How many requests are here now, queued or running. */
    int requests() {
        return requests.get();
    }

    /** Queues {@code request} behind its owner's earlier tasks; its reply counts only if it comes by {@code deadline}. */
    Call send(Request request, long deadline, WhenLate whenLate) {
        if (requests.incrementAndGet() > CAPACITY) {
            requests.decrementAndGet();
            return Call.done(new Reply.Failed(new RejectedExecutionException(
                    "not sent: " + CAPACITY + " requests already wait for this node")));
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
                if (Barrier.timedOut(e)) {
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

    /** Runs {@code task} behind {@code owner}'s earlier ones; false when the queue is closed. */
    boolean enqueue(String owner, Runnable task) {
        tasksByOwner.merge(owner, 1, Integer::sum);
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

    /** On the queue's thread: the barrier, until the node has run what it was sent. */
    void awaitAnswer() {
        Barrier.awaitAnswer(node, thread::isShutdown);
    }

    private void dequeue(String owner) {
        tasksByOwner.computeIfPresent(owner, (key, count) -> count == 1 ? null : count - 1);
    }

    private static Reply awaitReply(CompletableFuture<Object> reply, long deadline) {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return new Reply.Answered(reply.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS));
                } catch (InterruptedException e) {
                    interrupted = true;
                } catch (ExecutionException e) {
                    return new Reply.Failed(e.getCause());
                } catch (TimeoutException e) {
                    return new Reply.Failed(e);
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Stops the queue; a request stuck on a stalled node ends with its socket timeout. */
    @Override
    public void close() {
        thread.shutdownNow();
    }
}
