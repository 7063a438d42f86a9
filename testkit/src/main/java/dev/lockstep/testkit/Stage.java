package dev.lockstep.testkit;

import dev.lockstep.LockOptions;
import dev.lockstep.Locks;
import java.lang.reflect.InvocationTargetException;
import redis.clients.jedis.UnifiedJedis;

/**
 * A stage under test: its module name and its {@link Locks} class, which every stage constructs
 * as {@code new XLocks(UnifiedJedis, LockOptions)} (so a child JVM can build one from the name too).
 *
 * @param name       the module, e.g. {@code v1-setnx}
 * @param locksClass the entry point, e.g. {@code dev.lockstep.v1.SetnxLocks}
 */
public record Stage(String name, Class<? extends Locks> locksClass) {

    /** A client of this stage over {@code redis}. */
    public Locks open(UnifiedJedis redis, LockOptions options) {
        return open(locksClass, redis, options);
    }

    /** A client of stage class {@code locksClass} over {@code redis}. */
    static Locks open(Class<? extends Locks> locksClass, UnifiedJedis redis, LockOptions options) {
        try {
            return locksClass.getConstructor(UnifiedJedis.class, LockOptions.class).newInstance(redis, options);
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            throw new IllegalStateException("cannot construct " + locksClass.getName(), e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(locksClass.getName()
                    + " needs a public constructor (UnifiedJedis, LockOptions)", e);
        }
    }

    @Override
    public String toString() {
        return name;
    }
}
