package dev.lockstep.testkit.model;

import dev.lockstep.testkit.model.Step.Side;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The lock's queries that ask Redis, {@code isLocked()} and {@code remainingLease()}, checked after
 * every step against what Redis stores: asked before Redis is read, and {@code isLocked()} once
 * more after, so that a hold granted or ended meanwhile (a background call, a lease running out) is
 * not taken for a wrong answer. They are asked on client A's first handle thread, which holds nothing
 * of its own and never waits in the background. A read-write lock's sides each answer for their own
 * mode (as Redisson's do), so the lock is locked when either says so.
 *
 * @param locked    what {@code isLocked()} answered before Redis was read (of either side)
 * @param remaining what {@code remainingLease()} answered
 * @param asked     when (nanoTime) they were asked
 * @param quiet     whether no call was under way in the background: only then can nothing take the lock meanwhile
 */
record LockQueries(Object locked, Object remaining, long asked, boolean quiet) {

    /** Redis rounds a PTTL to the millisecond. */
    private static final long ROUNDING_MILLIS = 2;
    private static final int ASKER = ModelSetup.THREADS;

    /** Asks client A's lock both queries, now; {@code quiet} when no call waits in the background. */
    static LockQueries ask(RunContext run, boolean quiet) {
        long asked = System.nanoTime();
        return new LockQueries(isLocked(run), run.call(0, ASKER, run.lock(0, Side.WRITE)::remainingLease), asked, quiet);
    }

    /** Whether either side of client A's lock says it is locked, or what it threw. */
    private static Object isLocked(RunContext run) {
        boolean locked = false;
        for (Side side : run.setup().readWrite() ? List.of(Side.WRITE, Side.READ) : List.of(Side.WRITE)) {
            Object answer = run.call(0, ASKER, run.lock(0, side)::isLocked);
            if (!(answer instanceof Boolean b)) {
                return answer;
            }
            locked |= b;
        }
        return locked;
    }

    /** Whether any owner may hold with a lease mixed of a fixed one and the watchdog's. */
    private static boolean anyMixedLease(ReferenceModel model) {
        return model.holders(-1).stream().anyMatch(h -> model.owner(h[0], h[1], Side.values()[h[2]]).mixedLease);
    }

    /** What was answered against {@code redis}, read after the questions; {@code isLocked()} is asked again to bracket it. */
    Optional<Violation> judge(RunContext run, RedisView redis) {
        Object lockedAgain = isLocked(run);
        // A query may throw, as documented (a pooled connection that Redis dropped): nothing to judge then.
        if (!(locked instanceof Boolean before) || !(remaining instanceof Duration lease)) {
            return Optional.empty();
        }
        boolean stored = redis.lockKeyHeld();
        // A waiter in the background may take the lock between the questions and the read.
        if (quiet && before.equals(lockedAgain) && before != stored) {
            return Optional.of(new Violation("query-vs-redis", "isLocked() says " + before + " twice, but Redis stores "
                    + redis));
        }
        long elapsedMillis = (System.nanoTime() - asked) / 1_000_000;
        long longest = redis.keyTtls().stream().mapToLong(Long::longValue).max().orElse(-2);
        // A renewal may cut a longer fixed lease mixed into its hold right after the query: no promise to check then.
        if (longest >= 0 && lease.toMillis() > longest + elapsedMillis + ROUNDING_MILLIS && !anyMixedLease(run.model())) {
            return Optional.of(new Violation("query-vs-redis", "remainingLease() says " + lease.toMillis()
                    + " ms, but the key's longest TTL was " + longest + " ms, " + elapsedMillis + " ms later"));
        }
        if (quiet && Boolean.FALSE.equals(lockedAgain) && !before && !stored && !lease.isZero()) {
            return Optional.of(new Violation("query-vs-redis", "remainingLease() says " + lease.toMillis()
                    + " ms of a lock that isLocked() and Redis say nobody holds"));
        }
        return Optional.empty();
    }
}
