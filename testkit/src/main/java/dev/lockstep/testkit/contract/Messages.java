package dev.lockstep.testkit.contract;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The contract's check that bad input fails at the call with a message that names what was wrong. */
final class Messages {

    private Messages() {
    }

    /** Asserts {@code call} throws a {@code type} whose message contains {@code word}. */
    static void assertMessage(Class<? extends Throwable> type, String word, ThrowingCall call) {
        Throwable thrown = assertThrows(type, call::run);
        assertTrue(thrown.getMessage() != null && thrown.getMessage().contains(word),
                "the message should name '" + word + "': " + thrown.getMessage());
    }

    /** A call that may throw anything. */
    @FunctionalInterface
    interface ThrowingCall {

        /** Makes the call. */
        void run() throws Throwable;
    }
}
