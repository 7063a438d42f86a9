package dev.lockstep.starter;

import java.time.Duration;

/** A {@link Locked} method's lock was not taken within its wait: the method did not run. */
public class LockNotTakenException extends RuntimeException {

    private final String lockName;
    private final Duration waited;

    /** The lock {@code lockName} stayed taken for all of {@code waited}. */
    public LockNotTakenException(String lockName, Duration waited) {
        super(message(lockName, waited));
        this.lockName = lockName;
        this.waited = waited;
    }

    /** The lock {@code lockName} was not taken: {@code cause} stopped the wait (an interrupt). */
    public LockNotTakenException(String lockName, Duration waited, Throwable cause) {
        super("lock '" + lockName + "' was not taken: the wait was interrupted", cause);
        this.lockName = lockName;
        this.waited = waited;
    }

    /** The message both this exception and a custom {@code onTimeout} exception carry. */
    static String message(String lockName, Duration waited) {
        return "lock '" + lockName + "' was not taken within " + waited.toMillis() + " ms";
    }

    /** The name of the lock that was not taken. */
    public String lockName() {
        return lockName;
    }

    /** How long the call waited for it. */
    public Duration waited() {
        return waited;
    }
}
