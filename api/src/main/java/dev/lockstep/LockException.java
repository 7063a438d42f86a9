package dev.lockstep;

/** A lock operation that Redis did not answer, or that could not count: the call neither took nor released the lock for sure. */
public class LockException extends RuntimeException {

    /** An operation on lock {@code name} that Redis answered but that could not count, for the reason given. */
    public LockException(String name, String problem) {
        super("lock '" + name + "': " + problem);
    }

    /** Wraps the client failure behind an operation on lock {@code name}. */
    public LockException(String name, String operation, Throwable cause) {
        super("lock '" + name + "': " + operation + " failed, Redis did not answer: " + cause.getMessage(), cause);
    }
}
