package dev.lockstep.testkit.model;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One thread per owner slot (client slot, owner slot), each behind a single-thread executor: a lock
 * is held by a thread, so every call of one owner must run on the same thread, one at a time. A
 * hold handle's slot has a thread too: the one its calls are made from, never the one that took it.
 */
final class OwnerThreads {

    /** The longest any one call may take before it counts as hung. */
    static final Duration CALL_DEADLINE = Duration.ofSeconds(10);

    private final ExecutorService[][] executors = new ExecutorService[ModelSetup.CLIENTS][ModelSetup.OWNERS];
    private final Thread[][] threads = new Thread[ModelSetup.CLIENTS][ModelSetup.OWNERS];

    /** A call that did not return in time. */
    record Hung(Duration deadline) {
    }

    /** Starts the owner threads of client slot {@code c}. */
    void start(int c) {
        for (int t = 0; t < ModelSetup.OWNERS; t++) {
            String name = "model-owner-" + Step.ownerName(c, t);
            executors[c][t] = Executors.newSingleThreadExecutor(task -> {
                Thread thread = new Thread(task, name);
                thread.setDaemon(true);
                return thread;
            });
            int client = c;
            int thread = t;
            call(c, t, () -> threads[client][thread] = Thread.currentThread(), CALL_DEADLINE);
        }
    }

    /** Owner (c, t)'s thread. */
    Thread thread(int c, int t) {
        return threads[c][t];
    }

    /** The thread slot of client slot {@code c} whose thread has id {@code threadId}, or -1. */
    int threadSlot(int c, long threadId) {
        for (int t = 0; t < ModelSetup.OWNERS; t++) {
            if (threads[c][t].getId() == threadId) {
                return t;
            }
        }
        return -1;
    }

    /** Runs {@code body} on owner (c, t)'s thread: its value, the exception it threw, or {@link Hung}. */
    Object call(int c, int t, Callable<?> body, Duration deadline) {
        return await(submit(c, t, body), deadline);
    }

    /** Starts {@code body} on owner (c, t)'s thread without waiting for it. */
    Future<?> submit(int c, int t, Callable<?> body) {
        return executors[c][t].submit(body);
    }

    /** What {@code future} ends with: its value, the exception it threw, or {@link Hung} after {@code deadline}. */
    static Object await(Future<?> future, Duration deadline) {
        try {
            return future.get(deadline.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (TimeoutException e) {
            return new Hung(deadline);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return e;
        }
    }

    /** Stops the owner threads of client slot {@code c}, interrupting a call still running. */
    void stop(int c) {
        for (int t = 0; t < ModelSetup.OWNERS; t++) {
            if (executors[c][t] != null) {
                executors[c][t].shutdownNow();
            }
        }
    }

    /** Sleeps the calling thread, keeping its interrupt. */
    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
