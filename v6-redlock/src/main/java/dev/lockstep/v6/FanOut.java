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
 *
 * <p>Each node has its own single thread, so the requests to one node leave in the order they
 * were made: an undo queued behind a lock request stuck on a paused node runs after it, and
 * cannot be overtaken by it when the node wakes up.
 */
final class FanOut implements AutoCloseable {

    private final List<UnifiedJedis> nodes;
    private final Duration nodeTimeout;
    private final List<ExecutorService> lanes = new ArrayList<>();

    FanOut(List<UnifiedJedis> nodes, Duration nodeTimeout, String threadName) {
        this.nodes = nodes;
        this.nodeTimeout = nodeTimeout;
        for (int i = 0; i < nodes.size(); i++) {
            String name = threadName + "-n" + (i + 1);
            lanes.add(Executors.newSingleThreadExecutor(runnable -> {
                Thread thread = new Thread(runnable, name);
                thread.setDaemon(true);
                return thread;
            }));
        }
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
        List<Future<Object>> pending = send(request);
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

    /** Queues {@code request} on the nodes {@code which} selects, without waiting for the answers. */
    void tell(List<Boolean> which, Function<UnifiedJedis, Object> request) {
        for (int i = 0; i < nodes.size(); i++) {
            if (which.get(i)) {
                UnifiedJedis node = nodes.get(i);
                lanes.get(i).submit(() -> request.apply(node));
            }
        }
    }

    private List<Future<Object>> send(Function<UnifiedJedis, Object> request) {
        List<Future<Object>> pending = new ArrayList<>();
        for (int i = 0; i < nodes.size(); i++) {
            UnifiedJedis node = nodes.get(i);
            pending.add(lanes.get(i).submit(() -> request.apply(node)));
        }
        return pending;
    }

    private static Reply await(Future<Object> call, long deadline) throws InterruptedException {
        try {
            return new Reply(call.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS), null);
        } catch (ExecutionException e) {
            return new Reply(null, e.getCause());
        } catch (TimeoutException e) {
            // Not cancelled: the request stays in its node's queue, so what follows it stays behind it.
            return new Reply(null, e);
        }
    }

    /** Stops the node threads; requests stuck on a dead node end with their socket timeout. */
    @Override
    public void close() {
        lanes.forEach(ExecutorService::shutdownNow);
    }
}
