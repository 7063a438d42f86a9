package dev.lockstep.internal;

import dev.lockstep.RedisUnreachableException;
import java.time.Duration;
import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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

    /**
     * Error replies that say "not now" rather than "no": a server still loading its data, a master
     * demoted to a replica that a client still writes to (a failover), a script running past the
     * busy threshold, a slot being migrated, a cluster without a quorum, a replica cut off from
     * its master.
     */
    private static final Set<String> TRANSIENT_ERRORS =
            Set.of("LOADING", "READONLY", "BUSY", "TRYAGAIN", "CLUSTERDOWN", "MASTERDOWN");
    /**
     * An error reply's code: its first word, or inside a Redis 6 script error ("ERR Error running
     * script (...): @user_script:1: -READONLY You can't...") the code of the command that failed.
     */
    private static final Pattern ERROR_CODE = Pattern.compile("(?:ERR Error running script .*: -)?([A-Z]+)");

    private final long limitNanos;
    private long failingSince;

    /** Patience for {@code limit} of failing attempts; {@link Duration#ZERO} gives up at the first failure. */
    public Patience(Duration limit) {
        this.limitNanos = limit.toNanos();
    }

    /**
     * Whether {@code failure} says Redis could not be asked, for now: the connection failed, or
     * the server answered with an error that passes by itself ({@link #TRANSIENT_ERRORS}). Such an
     * attempt may have run, or may run soon.
     */
    public static boolean unreachable(Throwable failure) {
        return failure instanceof JedisConnectionException
                || failure instanceof JedisDataException && TRANSIENT_ERRORS.contains(errorCode(failure.getMessage()));
    }

    /** The code of an error reply ({@code READONLY} in "READONLY You can't write..."), or "". */
    private static String errorCode(String message) {
        if (message == null) {
            return "";
        }
        Matcher code = ERROR_CODE.matcher(message);
        return code.lookingAt() ? code.group(1) : "";
    }

    /**
     * Whether {@code failure} is Redis answering no (a missing ACL permission, a wrong type): an
     * error reply that no retry will change, unlike {@link #unreachable}.
     */
    public static boolean refused(Throwable failure) {
        return failure instanceof JedisDataException && !unreachable(failure);
    }

    /**
     * Runs {@code attempt}; if it fails to reach Redis ({@link RedisUnreachableException}) and failures have not lasted the limit yet,
     * returns {@code whenFailed} instead of throwing, so the caller waits and tries again.
     */
    public <T> T attempt(Supplier<T> attempt, T whenFailed) {
        try {
            T result = attempt.get();
            failingSince = 0;
            return result;
        } catch (RedisUnreachableException e) {
            long now = System.nanoTime();
            failingSince = failingSince == 0 ? now : failingSince;
            if (now - failingSince >= limitNanos) {
                throw e;
            }
            return whenFailed;
        }
    }
}
