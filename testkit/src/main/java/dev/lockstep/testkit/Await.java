package dev.lockstep.testkit;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.function.Executable;
import redis.clients.jedis.exceptions.JedisConnectionException;

/** Waits on conditions with deadlines, never a bare sleep-and-hope. */
public final class Await {

    private Await() {
    }

    /** Polls {@code condition} until it holds, failing with {@code what} after {@code timeout}. */
    public static void until(String what, Duration timeout, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                fail(what + ": not within " + timeout);
            }
            pause(Duration.ofMillis(10));
        }
    }

    /** Asserts {@code call} fails with a socket timeout, after at least about one client timeout. */
    public static void assertTimesOut(Executable call) {
        long start = System.nanoTime();
        JedisConnectionException e = assertThrows(JedisConnectionException.class, call);
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        boolean timeout = false;
        for (Throwable t = e; t != null; t = t.getCause()) {
            timeout |= t instanceof SocketTimeoutException;
        }
        assertTrue(timeout, "expected a socket timeout, got " + e);
        assertTrue(took.compareTo(RedisNode.CLIENT_TIMEOUT.minusMillis(100)) >= 0, "timed out after only " + took);
    }

    /** Sleeps for a step of a polling loop or an observation window. */
    public static void pause(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            fail("interrupted");
        }
    }
}
