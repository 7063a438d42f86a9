package dev.lockstep.starter;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.springframework.boot.test.context.assertj.AssertableApplicationContext;

/** Assertions on a context that must not start. */
final class StartupFailure {

    private StartupFailure() {
    }

    /** Asserts that {@code context} failed to start and that one of its failure's causes says {@code message}. */
    static void assertSays(AssertableApplicationContext context, String message) {
        Throwable failure = context.getStartupFailure();
        assertNotNull(failure, "the context must not start");
        StringBuilder causes = new StringBuilder();
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            causes.append(cause.getMessage()).append('\n');
        }
        assertTrue(causes.toString().contains(message), causes.toString());
    }
}
