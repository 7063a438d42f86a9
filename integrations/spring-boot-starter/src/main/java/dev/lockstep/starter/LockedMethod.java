package dev.lockstep.starter;

import dev.lockstep.internal.Args;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.function.Function;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.context.expression.MethodBasedEvaluationContext;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.ParameterNameDiscoverer;
import org.springframework.core.env.Environment;
import org.springframework.expression.Expression;
import org.springframework.expression.ParseException;
import org.springframework.expression.spel.standard.SpelExpressionParser;
import org.springframework.util.ClassUtils;

/**
 * One {@link Locked} method's attributes, parsed and checked once: the lock name's fixed part, the
 * key expression, the wait and lease, and how to build the timeout exception.
 */
record LockedMethod(Method method, String prefix, Expression key, Duration waitFor, Duration lease,
                    Function<String, RuntimeException> onTimeout) {

    private static final SpelExpressionParser PARSER = new SpelExpressionParser();
    private static final ParameterNameDiscoverer PARAMETER_NAMES = new DefaultParameterNameDiscoverer();

    /**
     * Parses {@code locked} on {@code method}; {@code ${...}} placeholders resolve in {@code environment}.
     *
     * @throws IllegalArgumentException naming the method and attribute, for a blank name, a key that
     *                                  does not parse, a wait or lease that is not a duration, a lease
     *                                  a lock refuses (outside 10 ms to 365 days), or an exception class
     *                                  without a usable constructor
     */
    static LockedMethod of(Method method, Locked locked, LockstepProperties properties, Environment environment) {
        String where = "@Locked on " + method.getDeclaringClass().getSimpleName() + "." + method.getName() + ": ";
        if (locked.name().isBlank()) {
            throw new IllegalArgumentException(where + "name must not be blank");
        }
        Expression key = null;
        if (!locked.key().isEmpty()) {
            try {
                key = PARSER.parseExpression(locked.key());
            } catch (ParseException e) {
                throw new IllegalArgumentException(where + "key '" + locked.key() + "' is not a SpEL expression", e);
            }
        }
        Duration wait = duration(where + "waitFor", locked.waitFor(), environment);
        Duration lease = duration(where + "lease", locked.lease(), environment);
        if (wait != null && wait.isNegative()) {
            throw new IllegalArgumentException(where + "waitFor must be zero or positive, was " + locked.waitFor());
        }
        if (lease != null) {
            try {
                Args.lease(lease);
            } catch (IllegalArgumentException refused) {
                // The lock would refuse it at every call: refuse it once, at start.
                throw new IllegalArgumentException(where + refused.getMessage() + " ('" + locked.lease() + "')", refused);
            }
        }
        Duration waitOrDefault = wait == null ? properties.defaultWait() : wait;
        return new LockedMethod(method, properties.keyPrefix() + locked.name(), key, waitOrDefault, lease,
                onTimeout(where, locked.onTimeout(), waitOrDefault));
    }

    /** The lock name for a call with {@code arguments}. */
    String lockName(Object[] arguments) {
        if (key == null) {
            return prefix;
        }
        Object value = key.getValue(new MethodBasedEvaluationContext(null, method, arguments, PARAMETER_NAMES));
        if (value == null) {
            throw new IllegalArgumentException("@Locked on " + method.getDeclaringClass().getSimpleName() + "."
                    + method.getName() + ": key '" + key.getExpressionString() + "' was null for this call");
        }
        return prefix + ":" + value;
    }

    /** The exception a call throws when {@code lockName} was not taken within the wait. */
    RuntimeException notTaken(String lockName) {
        return onTimeout.apply(lockName);
    }

    private static Duration duration(String attribute, String text, Environment environment) {
        String resolved = text;
        try {
            resolved = environment.resolveRequiredPlaceholders(text).strip();
            return resolved.isEmpty() ? null : DurationStyle.detectAndParse(resolved);
        } catch (IllegalArgumentException e) {
            // A placeholder without a value lands here too, and the cause names it.
            throw new IllegalArgumentException(attribute + " must be a duration such as 2s or 500ms, was '"
                    + resolved + "'", e);
        }
    }

    /** Builds {@code type} for a lock not taken within {@code wait}; checked here, once, not at the first timeout. */
    private static Function<String, RuntimeException> onTimeout(String where, Class<? extends RuntimeException> type,
                                                                Duration wait) {
        if (type == LockNotTakenException.class) {
            return lockName -> new LockNotTakenException(lockName, wait);
        }
        Constructor<? extends RuntimeException> withMessage = ClassUtils.getConstructorIfAvailable(type, String.class);
        Constructor<? extends RuntimeException> constructor = withMessage != null ? withMessage
                : ClassUtils.getConstructorIfAvailable(type);
        if (constructor == null) {
            throw new IllegalArgumentException(where + "onTimeout " + type.getName()
                    + " needs a public (String) or no-argument constructor");
        }
        return lockName -> {
            try {
                return withMessage != null ? withMessage.newInstance(LockNotTakenException.message(lockName, wait))
                        : constructor.newInstance();
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("cannot build " + type.getName() + " for lock '" + lockName + "'", e);
            }
        };
    }
}
