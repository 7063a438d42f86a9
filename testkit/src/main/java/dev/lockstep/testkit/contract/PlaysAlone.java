package dev.lockstep.testkit.contract;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A test of a concurrent class that runs with no other test of its JVM beside it ({@link
 * dev.lockstep.testkit.scenario.TimingSlot}): its verdict hangs on timing, or it disturbs the whole JVM.
 * Say why where it is used.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface PlaysAlone {
}
