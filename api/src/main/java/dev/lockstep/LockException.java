package dev.lockstep;

/** Redis could not be asked: the lock's state is unknown, so the call neither took nor released it for sure. */
public class LockException extends RuntimeException {

    /** Wraps the client failure behind an operation on lock {@code name}. */
    public LockException(String name, String operation, Throwable cause) {
        super("lock '" + name + "': " + operation + " failed, Redis did not answer: " + cause.getMessage(), cause);
    }
}
