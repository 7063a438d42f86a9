package dev.lockstep.internal;

import dev.lockstep.LockOptions;
import dev.lockstep.RedisRefusedException;
import dev.lockstep.RedisUnreachableException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisException;

/**
 * A lock as its client sees it: its name and key, how its owners are named and what they hold it under, the Redis it talks to,
 * and the calls to that Redis, which fail with typed errors and send nothing once the client is
 * closed. The base of {@code AbstractDistLock}, which every lock extends.
 */
public abstract class ClientBoundLock {

    private final String name;
    private final AbstractLocks client;
    private final Map<Long, String> ownerValues = new ConcurrentHashMap<>();

    /** The lock called {@code name}, owned by {@code client}. */
    ClientBoundLock(String name, AbstractLocks client) {
        this.name = Args.name(name, "name");
        this.client = client;
    }

    /** The lock's name, as the caller gave it. */
    public final String name() {
        return name;
    }

    /** The Redis key: the name itself, as Redisson keys its locks, so both clients' locks of one name are one lock. */
    protected final String key() {
        return name;
    }

    /** Notes that the caller now holds the lock under the owner value {@code value}. */
    protected final void remember(String value) {
        ownerValues.put(Caller.currentId(), value);
    }

    /** The owner value the caller holds the lock under, or null. */
    protected final String ownerValue() {
        return ownerValues.get(Caller.currentId());
    }

    /** Forgets the caller's owner value. */
    protected final void forget() {
        ownerValues.remove(Caller.currentId());
    }

    /** The Redis this lock talks to. */
    protected final UnifiedJedis redis() {
        return client.redis();
    }

    /** Who is asking: this client and this thread, as Redisson writes it ({@code clientId:threadId}). */
    protected final String threadOwner() {
        return owner(Caller.currentId());
    }

    /** The owner field of thread {@code threadId} of this client, for work done on its behalf by another thread. */
    protected final String owner(long threadId) {
        return client.clientId() + ":" + threadId;
    }

    /** The thread (or hold handle) an owner field {@code clientId:threadId} names. */
    protected static long threadOf(String owner) {
        return Long.parseLong(owner.substring(owner.lastIndexOf(':') + 1));
    }

    /**
     * Runs {@code call} against Redis; a connection failure, a server still loading its data, or
     * an error reply (such as a missing ACL permission) becomes a {@link RedisUnreachableException}
     * or a {@link RedisRefusedException} naming this lock, with the cause kept. A closed client sends nothing: the call throws
     * {@link IllegalStateException} first.
     */
    protected final <T> T ask(String operation, Supplier<T> call) {
        checkOpen(operation);
        try {
            return client.call(call);
        } catch (JedisException e) {
            throw Patience.unreachable(e) ? new RedisUnreachableException(name, operation, e)
                    : new RedisRefusedException(name, operation, e);
        }
    }

    /** Whether this lock's client is closed: its locks send nothing any more. */
    protected final boolean isClosed() {
        return client.isClosed();
    }

    /** Throws {@link IllegalStateException} if this lock's client is closed: its background work is gone. */
    protected final void checkOpen(String operation) {
        if (client.isClosed()) {
            throw new IllegalStateException("lock '" + name + "': its Locks is closed, so " + operation
                    + " sends nothing (locks it held expire with their leases)");
        }
    }

    /** The options of the client this lock belongs to. */
    protected final LockOptions options() {
        return client.options();
    }

    /** The client this lock belongs to. */
    final AbstractLocks client() {
        return client;
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + name + "]";
    }
}
