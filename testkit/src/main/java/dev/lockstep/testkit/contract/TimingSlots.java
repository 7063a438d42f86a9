package dev.lockstep.testkit.contract;

import dev.lockstep.testkit.scenario.Scenario;
import dev.lockstep.testkit.scenario.TimingSlot;
import java.lang.reflect.Method;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.InvocationInterceptor;
import org.junit.jupiter.api.extension.ReflectiveInvocationContext;

/**
 * Puts each test of a concurrent class in the {@link TimingSlot}: alone when it is marked {@link
 * PlaysAlone} or plays a {@link Scenario#timed() timed} scenario, else beside the others.
 */
public final class TimingSlots implements InvocationInterceptor {

    @Override
    public void interceptTestMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> test,
                                    ExtensionContext context) throws Throwable {
        inSlot(invocation, test);
    }

    @Override
    public void interceptTestTemplateMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> test,
                                            ExtensionContext context) throws Throwable {
        inSlot(invocation, test);
    }

    /** Whether {@code test} runs alone: marked {@link PlaysAlone}, or playing a timed scenario. */
    static boolean alone(ReflectiveInvocationContext<Method> test) {
        return test.getExecutable().isAnnotationPresent(PlaysAlone.class)
                || test.getArguments().stream().anyMatch(argument -> argument instanceof Scenario scenario && scenario.timed());
    }

    private static void inSlot(Invocation<Void> invocation, ReflectiveInvocationContext<Method> test) throws Throwable {
        try (TimingSlot.Hold slot = TimingSlot.take(alone(test))) {
            invocation.proceed();
        }
    }
}
