package dev.lockstep.testkit.client;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One dedicated thread that runs lock calls, for tests. Locks (ours and Redisson's) are owned by thread id, so the
 * thread that locks must be the one that unlocks; and a test that interrupts a waiter needs to
 * know which thread to interrupt. Every blocking step is bounded, so a hang fails instead of
 * stalling the build.
 */
public final class LockThread implements AutoCloseable {

    /** How long any single step may take before the test fails instead of hanging. */
    public static final Duration DEADLINE = Duration.ofSeconds(20);

    private final ExecutorService executor;
    private final Thread thread;

    /** A thread named after {@code role}, started before the first lock call. */
    public LockThread(String role) throws Exception {
        AtomicReference<Thread> made = new AtomicReference<>();
        ThreadFactory threads = Threads.factory("lock-thread-" + role);
        executor = Executors.newSingleThreadExecutor(task -> {
            Thread t = threads.newThread(task);
            made.set(t);
            return t;
        });
        call(() -> null); // starts the thread, so its id is known before the first lock call
        thread = made.get();
    }

    /** The id both clients write into the owner field. */
    public long threadId() {
        return thread.getId();
    }

    /** The thread itself, to interrupt it or look at its state. */
    public Thread thread() {
        return thread;
    }

    /** Runs {@code task} on this thread, without waiting. */
    public <T> Future<T> submit(Callable<T> task) {
        return executor.submit(task);
    }

    /** Runs {@code task} on this thread and returns its result, within {@link #DEADLINE}. */
    public <T> T call(Callable<T> task) throws Exception {
        return get(submit(task), DEADLINE);
    }

    /** Runs {@code step} on this thread, within {@link #DEADLINE}. */
    public void run(Step step) throws Exception {
        call(() -> {
            step.run();
            return null;
        });
    }

    /** The result of {@code future} within {@code within}, with the task's own exception rethrown. */
    public static <T> T get(Future<T> future, Duration within) throws Exception {
        try {
            return future.get(within.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        } catch (TimeoutException e) {
            future.cancel(true);
            throw new AssertionError("a lock call took longer than " + within, e);
        }
    }

    @Override
    public void close() throws InterruptedException {
        executor.shutdownNow();
        assertTrue(executor.awaitTermination(DEADLINE.toMillis(), TimeUnit.MILLISECONDS),
                thread.getName() + " hung");
    }

    /** A lock step that returns nothing and may throw. */
    @FunctionalInterface
    public interface Step {
        /** Runs the step. */
        void run() throws Exception;
    }
}
