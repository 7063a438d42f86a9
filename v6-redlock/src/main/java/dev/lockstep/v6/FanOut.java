package dev.lockstep.v6;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import redis.clients.jedis.UnifiedJedis;

/**
 * Sends one request to every node at once and collects what came back within one node timeout.
 * A stalled node costs that timeout, never a lease: its answer, if it ever comes, is ignored.
 */
final class FanOut implements AutoCloseable {

    private final List<UnifiedJedis> nodes;
    private final Duration nodeTimeout;
    private final ExecutorService calls;

    FanOut(List<UnifiedJedis> nodes, Duration nodeTimeout, String threadName) {
        this.nodes = nodes;
        this.nodeTimeout = nodeTimeout;
        this.calls = Executors.newCachedThreadPool(runnable -> {
            Thread thread = new Thread(runnable, threadName);
            thread.setDaemon(true);
            return thread;
        });
    }

    /**
     * One node's answer.
     *
     * @param value   the reply (a script's nil is null), when answered
     * @param failure why there is no answer (an error, or the timeout), or null
     */
    record Reply(Object value, Throwable failure) {

        /** Whether the node answered in time. */
        boolean answered() {
            return failure == null;
        }
    }

    /** How many nodes there are. */
    int size() {
        return nodes.size();
    }

    /**
     * Runs {@code request} on every node in parallel; the replies in node order, each within the
     * node timeout. An interrupt does not cut a round short (half a round would leave grants
     * nobody counted); it stays set for the caller's next wait.
     */
    List<Reply> ask(Function<UnifiedJedis, Object> request) {
        List<Future<Object>> pending = new ArrayList<>();
        for (UnifiedJedis node : nodes) {
            pending.add(calls.submit(() -> request.apply(node)));
        }
        long deadline = System.nanoTime() + nodeTimeout.toNanos();
        boolean interrupted = false;
        List<Reply> replies = new ArrayList<>();
        for (Future<Object> call : pending) {
            while (true) {
                try {
                    replies.add(await(call, deadline));
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        return replies;
    }

    private static Reply await(Future<Object> call, long deadline) throws InterruptedException {
        try {
            return new Reply(call.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS), null);
        } catch (ExecutionException e) {
            return new Reply(null, e.getCause());
        } catch (TimeoutException e) {
            call.cancel(true);
            return new Reply(null, e);
        }
    }

    /** Stops the request threads; calls stuck on a dead node end with their socket timeout. */
    @Override
    public void close() {
        calls.shutdownNow();
    }
}
