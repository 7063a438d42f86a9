package dev.lockstep.testkit.model;

import dev.lockstep.CompositeLocks;
import dev.lockstep.DistLock;
import dev.lockstep.FencedLock;
import dev.lockstep.LockHold;
import dev.lockstep.Locks;
import dev.lockstep.ReadWriteDistLock;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.locks.Lock;
import java.util.stream.Collectors;

/**
 * The explorer's alphabet against the public surface: how each public method of the types a user
 * calls is drawn. A method is a step the explorer draws, a query it checks against the model after
 * every step, or one not drawn yet, named here so that it is known. A method added to one of the
 * types and named nowhere here fails {@code AlphabetTest}: the next call added cannot escape the
 * explorer unnoticed.
 */
public final class Alphabet {

    /** How the explorer covers a method. */
    public enum Coverage {
        /** A step kind calls it, with its outcome fed to the reference model. */
        STEP,
        /** The model checks what it answers after every step. */
        QUERY,
        /** Refused at the call, whatever the state: the contract's bad-input tests pin it, there is nothing to model. */
        REFUSED,
        /** Not drawn yet (issue 40: hold handles, extend and several names are the explorer's next steps). */
        NOT_YET_DRAWN
    }

    /** The types whose public methods make up the surface the explorer must draw. */
    public static final List<Class<?>> SURFACE = List.of(Locks.class, DistLock.class, LockHold.class,
            CompositeLocks.class, ReadWriteDistLock.class, FencedLock.class);

    private static final Map<String, Coverage> COVERAGE = new TreeMap<>(Map.ofEntries(
            Map.entry("Locks.get(String)", Coverage.STEP),
            Map.entry("Locks.clientId()", Coverage.QUERY),
            Map.entry("Locks.guarantees()", Coverage.QUERY),
            Map.entry("Locks.close()", Coverage.STEP),
            Map.entry("DistLock.name()", Coverage.QUERY),
            Map.entry("DistLock.lock()", Coverage.STEP),
            Map.entry("DistLock.lock(Duration)", Coverage.NOT_YET_DRAWN),
            Map.entry("DistLock.lockInterruptibly()", Coverage.STEP),
            Map.entry("DistLock.tryLock()", Coverage.STEP),
            Map.entry("DistLock.tryLock(long, TimeUnit)", Coverage.NOT_YET_DRAWN),
            Map.entry("DistLock.tryLock(Duration, Duration)", Coverage.STEP),
            Map.entry("DistLock.tryAcquire(Duration, Duration)", Coverage.NOT_YET_DRAWN),
            Map.entry("DistLock.extend(Duration)", Coverage.STEP),
            Map.entry("DistLock.unlock()", Coverage.STEP),
            Map.entry("DistLock.isHeldByCurrentThread()", Coverage.QUERY),
            Map.entry("DistLock.isLocked()", Coverage.NOT_YET_DRAWN),
            Map.entry("DistLock.remainingLease()", Coverage.NOT_YET_DRAWN),
            Map.entry("DistLock.holdCount()", Coverage.QUERY),
            Map.entry("DistLock.forceUnlock()", Coverage.STEP),
            Map.entry("DistLock.onLeaseLost(Consumer)", Coverage.QUERY),
            Map.entry("DistLock.newCondition()", Coverage.REFUSED),
            Map.entry("LockHold.lockName()", Coverage.NOT_YET_DRAWN),
            Map.entry("LockHold.isValid()", Coverage.NOT_YET_DRAWN),
            Map.entry("LockHold.token()", Coverage.NOT_YET_DRAWN),
            Map.entry("LockHold.extend(Duration)", Coverage.NOT_YET_DRAWN),
            Map.entry("LockHold.release()", Coverage.NOT_YET_DRAWN),
            Map.entry("LockHold.close()", Coverage.NOT_YET_DRAWN),
            Map.entry("LockHold.onLost(Consumer)", Coverage.NOT_YET_DRAWN),
            Map.entry("CompositeLocks.getAll(String[])", Coverage.NOT_YET_DRAWN),
            Map.entry("ReadWriteDistLock.readLock()", Coverage.STEP),
            Map.entry("ReadWriteDistLock.writeLock()", Coverage.STEP),
            Map.entry("FencedLock.token()", Coverage.STEP),
            Map.entry("FencedLock.lockAndGetToken()", Coverage.NOT_YET_DRAWN),
            Map.entry("FencedLock.tryLockAndGetToken(Duration, Duration)", Coverage.NOT_YET_DRAWN)));

    private Alphabet() {
    }

    /** How each method of {@link #SURFACE} is covered, by its signature ({@code DistLock.tryLock(Duration, Duration)}). */
    public static Map<String, Coverage> coverage() {
        return COVERAGE;
    }

    /** Every public method of {@link #SURFACE}, by signature: each type's own, and for {@code DistLock} those of {@link Lock}. */
    public static TreeSet<String> surface() {
        TreeSet<String> found = new TreeSet<>();
        for (Class<?> type : SURFACE) {
            for (Method method : type.getMethods()) {
                Class<?> from = method.getDeclaringClass();
                boolean own = from == type || (type == DistLock.class && from == Lock.class);
                if (own && !Modifier.isStatic(method.getModifiers())) {
                    found.add(type.getSimpleName() + "." + method.getName() + "(" + Arrays.stream(method.getParameterTypes())
                            .map(Class::getSimpleName).collect(Collectors.joining(", ")) + ")");
                }
            }
        }
        return found;
    }
}
