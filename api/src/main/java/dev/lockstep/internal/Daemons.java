package dev.lockstep.internal;

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
