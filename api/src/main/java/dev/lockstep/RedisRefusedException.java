package dev.lockstep;

/**
 * Redis answered with an error: a missing ACL permission, a wrong password, a command the server
 * does not allow. Retrying will not help until the server's or the client's configuration
 * changes; the message names what was refused.
 */
public class RedisRefusedException extends LockException {

    /** Redis refused {@code operation} on lock {@code name}; {@code cause} carries its error reply. */
    public RedisRefusedException(String name, String operation, Throwable cause) {
        super(name, operation + " failed, Redis refused it: " + cause.getMessage(), cause);
    }
}
