package dev.lockstep.internal;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The simplest wait for a lock, the default of every stage until stage 5 sleeps on a release
 * channel instead: try, sleep one spin interval, try again.
 *
 * @param interval how long to sleep between tries
 */
record SpinLoop(Duration interval) {

    /**
     * Tries with {@code attempt} until it takes the lock (true) or {@code waitNanos} pass (false;
     * a negative wait is forever); {@code patience} rides out tries that cannot reach Redis.
     */
    boolean run(long waitNanos, Patience patience, Supplier<Boolean> attempt) throws InterruptedException {
        long deadline = System.nanoTime() + waitNanos;
        long spinNanos = interval.toNanos();
        while (!patience.attempt(attempt, false)) {
            long left = waitNanos < 0 ? spinNanos : deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            TimeUnit.NANOSECONDS.sleep(Math.min(left, spinNanos));
        }
        return true;
    }
}
