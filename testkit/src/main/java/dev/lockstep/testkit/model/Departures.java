package dev.lockstep.testkit.model;

import java.util.HashMap;
import java.util.Map;

/** Redis fields that nobody holds any more, each with the moment (nanoTime) by which it must be gone. */
final class Departures {

    private final Map<String, Long> deadlines = new HashMap<>();

    /** {@code field}, which no owner the model follows holds, must be gone from Redis by {@code deadline}; the later deadline wins. */
    void depart(String field, long deadline) {
        deadlines.merge(field, deadline, Math::max);
    }

    /** By when {@code field} must be gone from Redis; null when it is not departing. */
    Long deadline(String field) {
        return deadlines.get(field);
    }

    /** Forgets the fields whose deadline passed more than {@code afterNanos} before {@code now}: their checks are done. */
    void forgetPast(long now, long afterNanos) {
        deadlines.values().removeIf(deadline -> now > deadline + afterNanos);
    }
}
