package dev.lockstep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Options are checked when built, naming the bad field; no Redis is involved. */
class LockOptionsTest {

    @Test
    void defaultsAreRedissons() {
        LockOptions defaults = LockOptions.defaults();
        assertEquals(Duration.ofSeconds(30), defaults.lease());
        assertEquals(Duration.ofMillis(100), defaults.spinInterval());
    }

    @Test
    void copiesChangeOneField() {
        LockOptions options = LockOptions.defaults().withLease(Duration.ofSeconds(2)).withSpinInterval(Duration.ofMillis(5));
        assertEquals(Duration.ofSeconds(2), options.lease());
        assertEquals(Duration.ofMillis(5), options.spinInterval());
    }

    @Test
    void badFieldsAreNamed() {
        assertNamed(NullPointerException.class, "lease", () -> LockOptions.defaults().withLease(null));
        assertNamed(IllegalArgumentException.class, "lease", () -> LockOptions.defaults().withLease(Duration.ZERO));
        assertNamed(IllegalArgumentException.class, "spinInterval",
                () -> LockOptions.defaults().withSpinInterval(Duration.ofMillis(-1)));
    }

    private static void assertNamed(Class<? extends RuntimeException> type, String field, Runnable call) {
        RuntimeException e = assertThrows(type, call::run);
        assertTrue(e.getMessage().contains(field), e.getMessage());
    }
}
