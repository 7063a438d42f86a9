package dev.lockstep.lab;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One named thread that makes a client's calls in {@code lab check}: a lock is held by a thread,
 * so the holder's calls must all run on the same one. Each call must answer within a time limit.
 */
final class CheckThread {

    private final Duration limit;
    private final ExecutorService executor;
    private volatile Thread thread;

    /** A thread called {@code name} whose calls each answer within {@code limit}. */
    CheckThread(String name, Duration limit) {
        this.limit = limit;
        this.executor = Executors.newSingleThreadExecutor(r -> {
            thread = new Thread(r, name);
            return thread;
        });
    }

    /** Starts {@code call} on this thread; its answer is for {@link #result}. */
    <T> Future<T> submit(Callable<T> call) {
        return executor.submit(call);
    }

    /** Runs {@code step} on this thread and waits for it, its own failure rethrown as it was. */
    void run(Checks.Step step) throws Exception {
        result(submit(() -> {
            step.run();
            return null;
        }));
    }

    /** What {@code result} gave within the time limit, its own failure rethrown as it was. */
    <T> T result(Future<T> result) throws Exception {
        try {
            return result.get(limit.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        } catch (TimeoutException e) {
            result.cancel(true);
            throw new IllegalStateException("no answer within " + limit.toMillis() + " ms", e);
        }
    }

    /** The thread itself, once a call started it; else null. */
    Thread thread() {
        return thread;
    }

    /** Stops the thread, interrupting a call still running. */
    void stop() {
        executor.shutdownNow();
    }
}
