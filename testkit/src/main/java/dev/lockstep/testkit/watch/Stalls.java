package dev.lockstep.testkit.watch;

import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * How long this JVM's threads waited to run, measured as it happens: a probe thread asks to sleep
 * {@value #TICK_MILLIS} ms at a time and records how much later than that it woke. On a busy
 * machine (other test JVMs beside this one) every thread waits its turn alike, so a test that
 * bounds a wake-up can add the delay the probe saw in the same window, and still fail a waiter that
 * was never woken.
 */
public final class Stalls {

    private static final long TICK_MILLIS = 5;
    private static final long TICK = TimeUnit.MILLISECONDS.toNanos(TICK_MILLIS);
    private static final long KEEP = TimeUnit.MINUTES.toNanos(1);
    /** When the probe woke (nanoTime) and how late, in nanoseconds: late ticks only. */
    private static final ConcurrentSkipListMap<Long, Long> LATE = new ConcurrentSkipListMap<>();

    static {
        Thread probe = new Thread(Stalls::probe, "stall-probe");
        probe.setDaemon(true);
        probe.start();
    }

    private Stalls() {
    }

    /** Starts the probe, if it has not started yet: call it before the window to measure. */
    public static void watch() {
        // Loading the class starts the probe.
    }

    /** The time the probe waited to run, beyond its ticks, between {@code from} and {@code to} (nanoTime). */
    public static long nanosBetween(long from, long to) {
        return LATE.subMap(from, true, to + TICK, true).values().stream().mapToLong(Long::longValue).sum();
    }

    private static void probe() {
        while (true) {
            long asleep = System.nanoTime();
            LockSupport.parkNanos(TICK);
            long woke = System.nanoTime();
            long late = woke - asleep - TICK;
            if (late > TimeUnit.MILLISECONDS.toNanos(1)) {
                LATE.put(woke, late);
                LATE.headMap(woke - KEEP).clear();
            }
        }
    }
}
