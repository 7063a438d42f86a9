package dev.lockstep;

import java.time.Duration;

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

    /** {@code lease} itself if null (the stage's default) or positive. */
    public static Duration lease(Duration lease) {
        return lease == null ? null : positive(lease, "lease");
    }
}
