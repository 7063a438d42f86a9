package dev.lockstep.testkit.contract;

import static org.junit.jupiter.api.Assertions.fail;

import dev.lockstep.Locks;
import dev.lockstep.testkit.client.Threads;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.InvocationInterceptor;
import org.junit.jupiter.api.extension.ReflectiveInvocationContext;

/**
 * After every test of a {@link LockContract}: closes the clients the test opened and fails, naming
 * the test, if a thread it started is still running.
 *
 * <p>The contract's tests run six at a time, so the JVM's list of threads alone cannot tell whose a
 * thread is. Two checks can:
 * <ul>
 *   <li>By name, after any test. A stage names its threads {@code lockstep-...-ID}, ID the first
 *       eight characters of its client id, so no thread so named may outlive the clients this test
 *       opened through {@link StageUnderTest#openOn}: those are its own, whatever ran beside it.</li>
 *   <li>By time, after a test that ran alone: one in a lone {@link TimingSlots timing slot}, or any
 *       test when JUnit runs one at a time ({@code -Dlockstep.serial}). Nothing else ran while it
 *       did, so every {@code lockstep-} thread that appeared meanwhile is its own.</li>
 * </ul>
 * What neither pins on one test, such as a thread of a scenario's own clients in a test that ran
 * beside others, {@link LockContract} still catches after the class, naming the class.
 */
public final class LeakCheck implements InvocationInterceptor, AfterEachCallback {

    private static final String THREADS = "lockstep-";
    /** The characters of a client id that a stage puts in its threads' names. */
    private static final int ID_IN_NAMES = 8;
    private static final ThreadLocal<Tracked> CURRENT = new ThreadLocal<>();
    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(LeakCheck.class);

    /** What one test opened, and the threads it started when it ran alone. */
    private static final class Tracked {
        /** Closed newest first, so clients close before the connections they use. */
        final List<AutoCloseable> opened = Collections.synchronizedList(new ArrayList<>());
        final Set<String> clientIds = Collections.synchronizedSet(new HashSet<>());
        final Set<Thread> before;
        Set<Thread> started = Set.of();

        Tracked(Set<Thread> before) {
            this.before = before;
        }
    }

    /**
     * Hands {@code resource} to the test running on this thread, to be closed after it; false when
     * no test is running here (then the caller closes it after the class).
     */
    static boolean closeAfterTest(AutoCloseable resource) {
        Tracked tracked = CURRENT.get();
        if (tracked == null) {
            return false;
        }
        if (resource instanceof Locks locks) {
            tracked.clientIds.add(locks.clientId().substring(0, ID_IN_NAMES));
        }
        tracked.opened.add(resource);
        return true;
    }

    @Override
    public void interceptTestMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> test,
                                    ExtensionContext context) throws Throwable {
        tracking(invocation, test, context);
    }

    @Override
    public void interceptTestTemplateMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> test,
                                            ExtensionContext context) throws Throwable {
        tracking(invocation, test, context);
    }

    private static void tracking(Invocation<Void> invocation, ReflectiveInvocationContext<Method> test,
                                 ExtensionContext context) throws Throwable {
        boolean serial = !context.getConfigurationParameter("junit.jupiter.execution.parallel.enabled", Boolean::parseBoolean)
                .orElse(false);
        Tracked tracked = new Tracked(serial || TimingSlots.alone(test) ? lockstepThreads() : null);
        context.getStore(NAMESPACE).put(Tracked.class, tracked);
        CURRENT.set(tracked);
        try {
            invocation.proceed();
        } finally {
            CURRENT.remove();
            if (tracked.before != null) {
                // Still in the lone slot: whatever appeared since the test began is its own.
                Set<Thread> started = lockstepThreads();
                started.removeAll(tracked.before);
                tracked.started = started;
            }
        }
    }

    @Override
    public void afterEach(ExtensionContext context) throws InterruptedException {
        Tracked tracked = context.getStore(NAMESPACE).remove(Tracked.class, Tracked.class);
        if (tracked == null) {
            return;
        }
        List<AutoCloseable> opened = new ArrayList<>(tracked.opened);
        Collections.reverse(opened);
        for (AutoCloseable resource : opened) {
            try {
                resource.close();
            } catch (Exception e) {
                // Best effort: a client of a killed node may fail to close.
            }
        }
        long deadline = System.nanoTime() + StageUnderTest.BOUNDED.toNanos();
        List<String> left = left(tracked);
        while (!left.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(50);
            left = left(tracked);
        }
        if (!left.isEmpty()) {
            String test = context.getRequiredTestMethod().getName();
            String shown = context.getDisplayName();
            fail((shown.startsWith(test + "(") ? test : test + " " + shown) + " left threads running: " + left);
        }
    }

    /** The test's threads still alive: named for its clients, or started while it ran alone. */
    private static List<String> left(Tracked tracked) {
        List<String> left = new ArrayList<>();
        for (Thread thread : Threads.live()) {
            String name = thread.getName();
            boolean ours = name.startsWith(THREADS) && tracked.clientIds.stream().anyMatch(name::contains);
            if (ours || tracked.started.contains(thread)) {
                left.add(name);
            }
        }
        return left;
    }

    private static Set<Thread> lockstepThreads() {
        Set<Thread> threads = new HashSet<>();
        for (Thread thread : Threads.live()) {
            if (thread.getName().startsWith(THREADS)) {
                threads.add(thread);
            }
        }
        return threads;
    }
}
