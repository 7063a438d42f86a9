package dev.lockstep.internal;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * A client's background threads: daemons, so that an application never waits on them to exit,
 * each named after its job and its client, so that a thread dump says whose it is.
 */
public final class Daemons {

    private Daemons() {
    }

    /** One scheduling thread called {@code name}; a cancelled task leaves its queue at once. */
    public static ScheduledThreadPoolExecutor scheduler(String name) {
        ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, factory(name));
        executor.setRemoveOnCancelPolicy(true);
        return executor;
    }

    /**
     * As {@link #scheduler}, for tasks scheduled on the callers' hot path, most of them more than
     * {@code tick} ahead and cancelled before they run (a hold's renewal and deadline). The thread
     * sleeps until its queue's first task, and a new first task has to wake it: a context switch
     * on every call that schedules one. A task that does nothing every {@code tick} stays first,
     * so a task further out joins the queue without waking anyone.
     */
    public static ScheduledThreadPoolExecutor ticking(String name, Duration tick) {
        ScheduledThreadPoolExecutor executor = scheduler(name);
        executor.scheduleAtFixedRate(() -> { }, tick.toNanos(), tick.toNanos(), TimeUnit.NANOSECONDS);
        return executor;
    }

    /** At most one thread called {@code name}, started by the first task and gone a second after the last. */
    public static ThreadPoolExecutor onDemand(String name) {
        return new ThreadPoolExecutor(0, 1, 1, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), factory(name));
    }

    /** Makes daemon threads called {@code name}. */
    public static ThreadFactory factory(String name) {
        return runnable -> {
            Thread thread = Executors.defaultThreadFactory().newThread(runnable);
            thread.setName(name);
            thread.setDaemon(true);
            return thread;
        };
    }
}
