package dev.lockstep;

/**
 * A lock operation that did not complete: Redis did not answer ({@link RedisUnreachableException}),
 * refused it ({@link RedisRefusedException}), or answered in a way that could not count (this
 * class itself, such as an acquisition too few replicas acknowledged). The call neither took nor
 * released the lock for sure; the cause, when there is one, is kept.
 */
public class LockException extends RuntimeException {

    /** An operation on lock {@code name} that Redis answered but that could not count, for the reason given. */
    public LockException(String name, String problem) {
        super("lock '" + name + "': " + problem);
    }

    /** An operation on lock {@code name} that failed, for the reason given, because of {@code cause}. */
    protected LockException(String name, String problem, Throwable cause) {
        super("lock '" + name + "': " + problem, cause);
    }
}
