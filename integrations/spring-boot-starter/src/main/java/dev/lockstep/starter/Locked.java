package dev.lockstep.starter;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs the method under a distributed lock: {@code lockstep.key-prefix} + {@link #name()} +
 * {@code ":"} + the value of {@link #key()} (when given). The hold belongs to no thread (it is
 * taken with {@code tryAcquire}), so the method may hand work to other threads or run on a
 * virtual thread; it is released when the method returns or throws.
 *
 * <pre>{@code
 * @Locked(name = "stock", key = "#sku", waitFor = "2s")
 * public void sell(String sku, int quantity) { ... }
 * }</pre>
 *
 * <p>Only calls through the Spring proxy are locked: a call from another method of the same bean is not.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface Locked {

    /** The lock's name, after {@code lockstep.key-prefix}. */
    String name();

    /** A SpEL expression over the method's parameters ({@code #sku}, {@code #order.id}); empty: the name alone. */
    String key() default "";

    /**
     * How long to wait for the lock ({@code 2s}, {@code 500ms}, {@code ${my.wait}}); empty:
     * {@code lockstep.wait}. (Not {@code wait}: an annotation cannot redeclare {@code Object.wait()}.)
     */
    String waitFor() default "";

    /** The hold's lease ({@code 30s}); empty: the stage's default, the watchdog's renewed lease from stage 4 on. */
    String lease() default "";

    /**
     * What the call throws when the lock is not taken within the wait: built with a
     * {@code (String message)} constructor, else a no-argument one.
     */
    Class<? extends RuntimeException> onTimeout() default LockNotTakenException.class;
}
