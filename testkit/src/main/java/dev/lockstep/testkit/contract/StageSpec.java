package dev.lockstep.testkit.contract;

import dev.lockstep.Guarantee;
import dev.lockstep.Locks;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** Names the stage a {@link LockContract} subclass tests and the guarantees it claims. */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@Inherited
public @interface StageSpec {

    /** The module name, e.g. {@code v1-setnx}. */
    String name();

    /** The stage's entry point, constructed as {@code new X(UnifiedJedis, LockOptions)}. */
    Class<? extends Locks> locks();

    /** What the stage promises; every other scenario must be reproduced. */
    Guarantee[] claims();
}
