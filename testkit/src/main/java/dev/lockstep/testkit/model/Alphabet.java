package dev.lockstep.testkit.model;

import dev.lockstep.CompositeLocks;
import dev.lockstep.DistLock;
import dev.lockstep.FencedLock;
import dev.lockstep.LockHold;
import dev.lockstep.Locks;
import dev.lockstep.ReadWriteDistLock;
import dev.lockstep.testkit.model.Step.Kind;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.locks.Lock;
import java.util.stream.Collectors;

/**
 * The explorer's alphabet against the public surface: how each public method of the types a user
 * calls is drawn. A method is called by step kinds the explorer draws, or is a query the model
 * checks after every step, or is refused at the call whatever the state, each with its reason. A
 * method added to one of the types and named nowhere here fails {@code AlphabetTest}, as does a
 * step kind named here that the draw never makes: the next call added cannot escape the explorer.
 */
public final class Alphabet {

    /** How the explorer covers a method. */
    public enum Coverage {
        /** Step kinds call it, with its outcome fed to the reference model. */
        STEP,
        /** The model checks what it answers after every step (or wherever the reason says). */
        QUERY,
        /** Refused at the call, whatever the state: the contract's bad-input tests pin it, there is nothing to model. */
        REFUSED
    }

    /**
     * How one method is covered.
     *
     * @param how    the kind of coverage
     * @param kinds  the step kinds that call it (only for {@link Coverage#STEP})
     * @param reason what is checked, or why it is not a step
     */
    public record Cover(Coverage how, Set<Kind> kinds, String reason) {
    }

    /** The types whose public methods make up the surface the explorer must draw. */
    public static final List<Class<?>> SURFACE = List.of(Locks.class, DistLock.class, LockHold.class,
            CompositeLocks.class, ReadWriteDistLock.class, FencedLock.class);

    private static final Map<String, Cover> COVERAGE = new TreeMap<>(Map.ofEntries(
            step("Locks.get(String)", Kind.LOCK, Kind.CLOSE),
            query("Locks.clientId()", "names every owner's Redis field the model checks"),
            query("Locks.guarantees()", "chooses which rules the model holds the stage to"),
            step("Locks.close()", Kind.CLOSE),
            query("DistLock.name()", "names the key the model reads"),
            step("DistLock.lock()", Kind.LOCK),
            step("DistLock.lock(Duration)", Kind.LOCK_LEASE),
            step("DistLock.lockInterruptibly()", Kind.INTERRUPT),
            step("DistLock.tryLock()", Kind.TRY_LOCK),
            step("DistLock.tryLock(long, TimeUnit)", Kind.TRY_LOCK_UNIT),
            step("DistLock.tryLock(Duration, Duration)", Kind.TRY_LOCK_WAIT, Kind.TRY_LOCK_LEASE, Kind.CONTEND),
            step("DistLock.tryAcquire(Duration, Duration)", Kind.TRY_ACQUIRE, Kind.TRY_ACQUIRE_LEASE),
            step("DistLock.extend(Duration)", Kind.EXTEND),
            step("DistLock.unlock()", Kind.UNLOCK),
            query("DistLock.isHeldByCurrentThread()", "each thread's answer against the model, after every step"),
            query("DistLock.isLocked()", "against the key Redis stores, after every step (LockQueries)"),
            query("DistLock.remainingLease()", "against the key's TTL in Redis, after every step (LockQueries)"),
            query("DistLock.holdCount()", "each thread's count against the model and Redis, after every step"),
            step("DistLock.forceUnlock()", Kind.FORCE_UNLOCK),
            query("DistLock.onLeaseLost(Consumer)", "a lost hold's owner must be told within a lease (LossNotice)"),
            refused("DistLock.newCondition()", "a distributed lock has no conditions: always unsupported"),
            query("LockHold.lockName()", "must name the lock it was taken from, checked on each handle taken"),
            query("LockHold.isValid()", "each handle's answer against the model after every step; local while the link is dark"),
            step("LockHold.token()", Kind.FENCED_WRITE),
            step("LockHold.extend(Duration)", Kind.HOLD_EXTEND),
            step("LockHold.release()", Kind.HOLD_RELEASE),
            step("LockHold.close()", Kind.HOLD_CLOSE),
            query("LockHold.onLost(Consumer)", "a lost handle's listeners must hear within a lease (LossNotice, StepCheck)"),
            step("CompositeLocks.getAll(String[])", Kind.LOCK, Kind.TRY_LOCK, Kind.TRY_ACQUIRE, Kind.UNLOCK),
            step("ReadWriteDistLock.readLock()", Kind.LOCK, Kind.TRY_LOCK, Kind.UNLOCK),
            step("ReadWriteDistLock.writeLock()", Kind.LOCK, Kind.TRY_LOCK, Kind.UNLOCK),
            step("FencedLock.token()", Kind.FENCED_WRITE),
            step("FencedLock.lockAndGetToken()", Kind.LOCK),
            step("FencedLock.tryLockAndGetToken(Duration, Duration)", Kind.TRY_LOCK_WAIT)));

    private Alphabet() {
    }

    /** How each method of {@link #SURFACE} is covered, by its signature ({@code DistLock.tryLock(Duration, Duration)}). */
    public static Map<String, Cover> coverage() {
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

    private static Map.Entry<String, Cover> step(String method, Kind... kinds) {
        return Map.entry(method, new Cover(Coverage.STEP, Set.of(kinds), "drawn as " + Arrays.toString(kinds)));
    }

    private static Map.Entry<String, Cover> query(String method, String check) {
        return Map.entry(method, new Cover(Coverage.QUERY, Set.of(), check));
    }

    private static Map.Entry<String, Cover> refused(String method, String why) {
        return Map.entry(method, new Cover(Coverage.REFUSED, Set.of(), why));
    }
}
