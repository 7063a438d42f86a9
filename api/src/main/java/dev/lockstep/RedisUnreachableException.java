package dev.lockstep;

/**
 * Redis did not answer: the connection was lost or refused, a reply timed out, or the server said
 * "not now" (still loading its data, a replica since a failover, busy with a script, a cluster
 * without a quorum or with the slot migrating). The call may or may not have reached Redis; a later
 * retry can succeed.
 * Within a wait, the lock already retries such failures for ten retry intervals before giving up.
 */
public class RedisUnreachableException extends LockException {

    /** {@code operation} on lock {@code name} got no answer from Redis; {@code cause} is the client's failure. */
    public RedisUnreachableException(String name, String operation, Throwable cause) {
        super(name, operation + " failed, Redis did not answer: " + cause.getMessage(), cause);
    }
}
