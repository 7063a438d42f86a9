package dev.lockstep.starter;

import dev.lockstep.LockHold;
import dev.lockstep.Locks;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.core.MethodClassKey;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.env.Environment;
import org.springframework.util.ReflectionUtils;

/**
 * Runs a {@link Locked} method inside a {@link LockHold}: taken before the call, closed after it
 * however it ends. A hold belongs to no thread, so the method may hand its work to another thread.
 *
 * <p>With an {@link ObservationRegistry} bean, the wait is observed as {@value #WAIT} and the
 * call under the lock as {@value #HOLD} (a timer each, and a span where tracing is set up), so a
 * traced request shows its time waiting for a lock. Low-cardinality keys: {@code lock.name} (the
 * annotation's name, with the key prefix: bounded by the code), {@code lock.kind} (the configured
 * stage) and, on the wait, {@code outcome} ({@code taken} or {@code not-taken}); the full lock name,
 * which carries the SpEL key's value, is the high-cardinality {@code lock.key}.
 */
final class LockedInterceptor implements MethodInterceptor {

    /** The observation of a wait for a lock. */
    static final String WAIT = "lockstep.lock.wait";
    /** The observation of a call that holds a lock. */
    static final String HOLD = "lockstep.lock.hold";

    private final ObjectProvider<Locks> locks;
    private final ObjectProvider<LockstepProperties> properties;
    private final ObjectProvider<ObservationRegistry> observations;
    private final Environment environment;
    private final Map<MethodClassKey, LockedMethod> methods = new ConcurrentHashMap<>();

    /** Looks the beans up at the first call: this interceptor exists before them, inside a bean post-processor. */
    LockedInterceptor(ObjectProvider<Locks> locks, ObjectProvider<LockstepProperties> properties,
                      ObjectProvider<ObservationRegistry> observations, Environment environment) {
        this.locks = locks;
        this.properties = properties;
        this.observations = observations;
        this.environment = environment;
    }

    @Override
    public Object invoke(MethodInvocation invocation) throws Throwable {
        LockedMethod locked = parsed(invocation);
        String name = locked.lockName(invocation.getArguments());
        ObservationRegistry registry = observations.getIfAvailable(() -> ObservationRegistry.NOOP);
        Observation waiting = observation(WAIT, locked, name, registry).start();
        Optional<LockHold> hold;
        try {
            hold = locks.getObject().get(name).tryAcquire(locked.waitFor(), locked.lease());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            waiting.error(e).stop();
            throw new LockNotTakenException(name, locked.waitFor(), e);
        } catch (RuntimeException e) {
            waiting.error(e).stop();
            throw e;
        }
        waiting.lowCardinalityKeyValue("outcome", hold.isPresent() ? "taken" : "not-taken").stop();
        if (hold.isEmpty()) {
            throw locked.notTaken(name);
        }
        Observation holding = observation(HOLD, locked, name, registry).start();
        // A hold lost while the method ran surfaces from close(): the work may have overlapped another holder's.
        try (Observation.Scope scope = holding.openScope(); LockHold held = hold.get()) {
            return invocation.proceed();
        } catch (Throwable e) {
            holding.error(e);
            throw e;
        } finally {
            holding.stop();
        }
    }

    private Observation observation(String observed, LockedMethod locked, String name, ObservationRegistry registry) {
        return Observation.createNotStarted(observed, registry)
                .lowCardinalityKeyValue("lock.name", locked.prefix())
                .lowCardinalityKeyValue("lock.kind", properties.getObject().kind())
                .highCardinalityKeyValue("lock.key", name);
    }

    /**
     * Parses every {@link Locked} method of {@code type} now, at start-up, so a bad attribute stops
     * the application instead of failing its first call.
     */
    void check(Class<?> type) {
        ReflectionUtils.doWithMethods(type, method -> parsed(method, type),
                method -> AnnotatedElementUtils.hasAnnotation(method, Locked.class));
    }

    private LockedMethod parsed(MethodInvocation invocation) {
        Class<?> target = invocation.getThis() == null ? invocation.getMethod().getDeclaringClass()
                : AopUtils.getTargetClass(invocation.getThis());
        return parsed(invocation.getMethod(), target);
    }

    private LockedMethod parsed(Method called, Class<?> target) {
        return methods.computeIfAbsent(new MethodClassKey(called, target), key -> {
            Method method = AopUtils.getMostSpecificMethod(called, target);
            Locked locked = AnnotatedElementUtils.findMergedAnnotation(method, Locked.class);
            if (locked == null) {
                locked = AnnotatedElementUtils.findMergedAnnotation(called, Locked.class);
            }
            return LockedMethod.of(method, locked, properties.getObject(), environment);
        });
    }
}
