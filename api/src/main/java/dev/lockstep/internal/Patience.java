package dev.lockstep.internal;

import dev.lockstep.LockException;
import java.time.Duration;
import java.util.function.Supplier;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * Within one wait, attempts that could not reach Redis are tried again until they have failed
 * for a while: a restarted server (still loading its data, or behind a stale pooled connection)
 * costs a retry, while a server that stays down still fails the wait in bounded time. Retrying
 * is safe only where an attempt whose reply was lost can be repeated without taking a second
 * hold; the stages that cannot promise that show the consequence in their lost-reply lesson.
 */
public final class Patience {

    private final long limitNanos;
    private long failingSince;

    /** Patience for {@code limit} of failing attempts; {@link Duration#ZERO} gives up at the first failure. */
    public Patience(Duration limit) {
        this.limitNanos = limit.toNanos();
    }

    /**
     * Whether {@code failure} says Redis could not be asked, for now: the connection failed, or the
     * server restarted and still loads its data. Such an attempt may have run, or may run soon.
     */
    public static boolean unreachable(Throwable failure) {
        return failure instanceof JedisConnectionException || failure instanceof JedisDataException
                && failure.getMessage() != null && failure.getMessage().startsWith("LOADING");
    }

    /**
     * Whether {@code failure} is Redis answering no (a missing ACL permission, a wrong type): an
     * error reply that no retry will change, unlike {@link #unreachable}.
     */
    public static boolean refused(Throwable failure) {
        return failure instanceof JedisDataException && !unreachable(failure);
    }

    /**
     * Runs {@code attempt}; if it fails to reach Redis and failures have not lasted the limit yet,
     * returns {@code whenFailed} instead of throwing, so the caller waits and tries again.
     */
    public <T> T attempt(Supplier<T> attempt, T whenFailed) {
        try {
            T result = attempt.get();
            failingSince = 0;
            return result;
        } catch (LockException e) {
            if (!unreachable(e.getCause())) {
                throw e;
            }
            long now = System.nanoTime();
            failingSince = failingSince == 0 ? now : failingSince;
            if (now - failingSince >= limitNanos) {
                throw e;
            }
            return whenFailed;
        }
    }
}
