package dev.lockstep.internal;

import java.time.Duration;
import java.time.temporal.ChronoUnit;

/** Argument checks that name the argument, so bad input fails at the call and not inside Redis. */
public final class Args {

    private Args() {
    }

    /** {@code name} itself, if it is neither null nor blank. */
    public static String name(String name, String argument) {
        if (name == null) {
            throw new NullPointerException(argument + " must not be null");
        }
        if (name.isBlank()) {
            throw new IllegalArgumentException(argument + " must not be blank");
        }
        return name;
    }

    /** {@code duration} itself, if it is neither null, zero nor negative. */
    public static Duration positive(Duration duration, String argument) {
        if (duration == null) {
            throw new NullPointerException(argument + " must not be null");
        }
        if (duration.isZero() || duration.isNegative()) {
            throw new IllegalArgumentException(argument + " must be positive, was " + duration);
        }
        return duration;
    }

    /** {@code duration} itself, if it is neither null nor negative. */
    public static Duration notNegative(Duration duration, String argument) {
        if (duration == null) {
            throw new NullPointerException(argument + " must not be null");
        }
        if (duration.isNegative()) {
            throw new IllegalArgumentException(argument + " must not be negative, was " + duration);
        }
        return duration;
    }

    /** The shortest lease: a shorter one runs out inside the safety margin a holder keeps before its deadline. */
    public static final Duration MIN_LEASE = Duration.ofMillis(10);
    /** The longest lease: a year. Longer is a lock that never expires in practice, and Redis refuses some of them. */
    public static final Duration MAX_LEASE = Duration.ofDays(365);
    /** Waits from this long on are forever: a deadline further out would overflow the nanosecond clock. */
    private static final long FOREVER_NANOS = Long.MAX_VALUE / 4;

    /** {@code lease} itself if null (the stage's default) or between {@link #MIN_LEASE} and {@link #MAX_LEASE}. */
    public static Duration lease(Duration lease) {
        return lease == null ? null : within(lease, MIN_LEASE, MAX_LEASE, "lease");
    }

    /** {@code duration} itself, if it is neither null nor outside {@code [min, max]}. */
    public static Duration within(Duration duration, Duration min, Duration max, String argument) {
        positive(duration, argument);
        if (duration.compareTo(min) < 0 || duration.compareTo(max) > 0) {
            throw new IllegalArgumentException(argument + " must be between " + min + " and " + max
                    + ", was " + duration);
        }
        return duration;
    }

    /** {@code wait} in nanoseconds, or -1 (forever) when it is so long that a deadline would overflow. */
    public static long waitNanos(Duration wait, String argument) {
        notNegative(wait, argument);
        if (wait.compareTo(Duration.ofNanos(FOREVER_NANOS)) >= 0) {
            return -1;
        }
        return wait.toNanos();
    }

    /**
     * A Redis PTTL reply as a remaining lease: {@link Duration#ZERO} for no key ({@code -2}), and
     * {@code ChronoUnit.FOREVER} for a key without a TTL ({@code -1}), which Lockstep never writes.
     */
    public static Duration remaining(long pttl) {
        if (pttl == -1) {
            return ChronoUnit.FOREVER.getDuration();
        }
        return pttl < 0 ? Duration.ZERO : Duration.ofMillis(pttl);
    }
}
