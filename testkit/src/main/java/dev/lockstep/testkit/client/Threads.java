package dev.lockstep.testkit.client;

import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.FutureTask;
import java.util.concurrent.ThreadFactory;
import java.util.stream.Collectors;

/**
 * The threads tests run clients on, and the JVM's live threads, for tests that prove nothing was
 * left running. With {@code -Dlockstep.threads=virtual} (the virtual-thread profile, on JDK 21 and
 * later) scenario clients, their background tasks and the contract's lock threads are virtual
 * threads; otherwise platform threads.
 */
public final class Threads {

    /** The system property that puts clients on virtual threads. */
    public static final String PROPERTY = "lockstep.threads";

    private Threads() {
    }

    /** Whether clients run on virtual threads in this JVM. */
    public static boolean virtual() {
        return "virtual".equals(System.getProperty(PROPERTY));
    }

    /**
     * Makes client threads called {@code name}: virtual ones when {@link #virtual()}, else daemon
     * platform threads. Found by reflection, since this module compiles for JDK 17.
     */
    public static ThreadFactory factory(String name) {
        if (!virtual()) {
            return task -> {
                Thread thread = new Thread(task, name);
                thread.setDaemon(true);
                return thread;
            };
        }
        try {
            Class<?> builder = Class.forName("java.lang.Thread$Builder");
            Object ofVirtual = Thread.class.getMethod("ofVirtual").invoke(null);
            Object named = builder.getMethod("name", String.class).invoke(ofVirtual, name);
            return (ThreadFactory) builder.getMethod("factory").invoke(named);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("-D" + PROPERTY + "=virtual needs JDK 21 or later, not "
                    + Runtime.version(), e);
        }
    }

    /**
     * Runs {@code task} on a client thread called {@code name} and returns what it returns: on the
     * calling thread, unless clients run on virtual threads.
     */
    public static <T> T onClientThread(String name, Callable<T> task) throws Exception {
        if (!virtual()) {
            return task.call();
        }
        FutureTask<T> run = new FutureTask<>(task);
        factory(name).newThread(run).start();
        try {
            return run.get();
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception cause ? cause : new IllegalStateException(e.getCause());
        }
    }

    /**
     * The live threads, but the test engine's own: with tests running side by side, JUnit starts
     * workers of its pool as it goes, and a test that compares threads before and after must not
     * count them. The engine's pool is the one the calling thread works for.
     */
    public static Set<Thread> live() {
        ForkJoinPool engine = Thread.currentThread() instanceof ForkJoinWorkerThread worker ? worker.getPool() : null;
        return Thread.getAllStackTraces().keySet().stream()
                .filter(Thread::isAlive)
                .filter(thread -> !(engine != null && thread instanceof ForkJoinWorkerThread worker && worker.getPool() == engine))
                .collect(Collectors.toSet());
    }

    /** The names of the live threads whose names start with {@code prefix}. */
    public static List<String> named(String prefix) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(Thread::isAlive)
                .map(Thread::getName)
                .filter(name -> name.startsWith(prefix))
                .toList();
    }
}
