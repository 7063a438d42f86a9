package dev.lockstep.testkit.contract;

import dev.lockstep.Guarantee;
import dev.lockstep.testkit.stage.Stages;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Names the stage a {@link LockContract} subclass tests, as the {@link Stages} registry knows it,
 * and the guarantees it claims. The stage reports its guarantees itself ({@code Locks.guarantees()});
 * the claims here are a deliberate second statement, which the contract checks against the first, so
 * a guarantee cannot be gained or dropped without its test class saying so.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@Inherited
public @interface StageSpec {

    /** The module name, e.g. {@code v1-setnx}. */
    String name();

    /** What the stage promises; every other scenario must be reproduced. */
    Guarantee[] claims();
}
