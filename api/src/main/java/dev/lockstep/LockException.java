package dev.lockstep;

/**
 * A lock operation that did not complete: Redis did not answer, refused it (a missing ACL
 * permission, a wrong password), or answered in a way that could not count. The call neither
 * took nor released the lock for sure; the cause, when there is one, is kept.
 */
public class LockException extends RuntimeException {

    /** An operation on lock {@code name} that Redis answered but that could not count, for the reason given. */
    public LockException(String name, String problem) {
        super("lock '" + name + "': " + problem);
    }

    /** Wraps the client failure behind an operation on lock {@code name}: no answer, or Redis's refusal. */
    public LockException(String name, String operation, Throwable cause) {
        super("lock '" + name + "': " + operation + " failed, " + (Patience.unreachable(cause)
                ? "Redis did not answer: " : "Redis refused it: ") + cause.getMessage(), cause);
    }
}
