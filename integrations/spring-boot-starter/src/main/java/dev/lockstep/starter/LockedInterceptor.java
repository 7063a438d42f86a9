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
import org.springframework.util.function.SingletonSupplier;

/**
 * Runs a {@link Locked} method inside a {@link LockHold}: taken before the call, closed after it
 * however it ends. A hold belongs to no thread, so the method may hand its work to another thread.
 * The wait and the hold are observed ({@link LockedObservations}) when the application has an
 * {@link ObservationRegistry}.
 */
final class LockedInterceptor implements MethodInterceptor {

    private final ObjectProvider<Locks> locks;
    private final ObjectProvider<LockstepProperties> properties;
    private final Environment environment;
    private final SingletonSupplier<LockedObservations> observations;
    private final Map<MethodClassKey, LockedMethod> methods = new ConcurrentHashMap<>();

    /** Looks the beans up at the first call: this interceptor exists before them, inside a bean post-processor. */
    LockedInterceptor(ObjectProvider<Locks> locks, ObjectProvider<LockstepProperties> properties,
                      ObjectProvider<ObservationRegistry> registry, Environment environment) {
        this.locks = locks;
        this.properties = properties;
        this.environment = environment;
        this.observations = SingletonSupplier.of(() -> new LockedObservations(
                registry.getIfUnique(() -> ObservationRegistry.NOOP), properties.getObject().kind()));
    }

    @Override
    public Object invoke(MethodInvocation invocation) throws Throwable {
        LockedMethod locked = parsed(invocation);
        String name = locked.lockName(invocation.getArguments());
        LockedObservations observe = observations.obtain();
        Observation wait = observe.waitFor(locked, name);
        Optional<LockHold> hold;
        try {
            hold = wait.observeChecked(() -> {
                Optional<LockHold> taken = locks.getObject().get(name).tryAcquire(locked.waitFor(), locked.lease());
                LockedObservations.outcome(wait, taken.isPresent());
                return taken;
            });
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LockNotTakenException(name, locked.waitFor(), e);
        }
        if (hold.isEmpty()) {
            throw locked.notTaken(name);
        }
        return observe.hold(locked, name).observeChecked(() -> {
            // A hold lost while the method ran surfaces from close(): the work may have overlapped another holder's.
            try (LockHold held = hold.get()) {
                return invocation.proceed();
            }
        });
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
