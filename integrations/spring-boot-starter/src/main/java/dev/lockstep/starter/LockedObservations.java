package dev.lockstep.starter;

import io.micrometer.common.KeyValues;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;

/**
 * A {@link Locked} call's wait for its lock and its hold, as Micrometer {@link Observation}s in the
 * application's {@link ObservationRegistry}: a timer each where the registry has a meter handler
 * (Spring Boot adds one beside a {@code MeterRegistry}), and a span each where tracing is set up,
 * so a traced request shows the time it spent waiting for a lock.
 *
 * <ul>
 * <li>{@code lockstep.lock.wait}: from the call to the lock taken or given up; low-cardinality
 *     {@code outcome}: {@code acquired} or {@code timed_out} (a wait that throws records the error).</li>
 * <li>{@code lockstep.lock.hold}: from the lock taken to its release, around the method's run.</li>
 * </ul>
 *
 * <p>Both carry {@code lockstep.lock.name}, the annotation's name after {@code lockstep.key-prefix}
 * without the key's value, and {@code lockstep.lock.kind}: low-cardinality, since the code has one
 * name per {@code @Locked} method and the configuration one kind. The whole lock name with the
 * key's value ({@code shop:stock:sku-1}) is unbounded (one per sku, per order), so it is the
 * high-cardinality {@code lockstep.lock.key}: on spans, never a meter tag.
 */
final class LockedObservations {

    private static final String WAIT = "lockstep.lock.wait";
    private static final String HOLD = "lockstep.lock.hold";
    private static final String NAME = "lockstep.lock.name";
    private static final String KIND = "lockstep.lock.kind";
    private static final String KEY = "lockstep.lock.key";
    private static final String OUTCOME = "outcome";

    private final ObservationRegistry registry;
    private final String kind;

    /** Observations in {@code registry} ({@link ObservationRegistry#NOOP}: none) of locks of {@code kind}. */
    LockedObservations(ObservationRegistry registry, String kind) {
        this.registry = registry;
        this.kind = kind;
    }

    /** The wait of a call of {@code method} for lock {@code lockName}, not started. */
    Observation waitFor(LockedMethod method, String lockName) {
        return observation(WAIT, "lock wait", method, lockName);
    }

    /** The hold of lock {@code lockName} by a call of {@code method}, not started. */
    Observation hold(LockedMethod method, String lockName) {
        return observation(HOLD, "lock hold", method, lockName);
    }

    /** Records how a wait ended: the lock was {@code taken}, or the wait ran out. */
    static void outcome(Observation wait, boolean taken) {
        wait.lowCardinalityKeyValue(OUTCOME, taken ? "acquired" : "timed_out");
    }

    private Observation observation(String name, String verb, LockedMethod method, String lockName) {
        return Observation.createNotStarted(name, registry)
                .contextualName(verb + " " + method.prefix())
                .lowCardinalityKeyValues(KeyValues.of(NAME, method.prefix(), KIND, kind))
                .highCardinalityKeyValue(KEY, lockName);
    }
}
