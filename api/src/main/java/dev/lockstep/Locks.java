package dev.lockstep;

import java.util.Set;

/** One client identity, like a {@code RedissonClient}: every lock it hands out shares its connection and id. */
public interface Locks extends AutoCloseable {

    /**
     * The lock called {@code name}. The same name gives the same lock object for as long as a
     * thread of this client holds it or the caller keeps a reference; an object nobody holds or
     * references is collected, so a client that locks millions of names stays small. Lock objects
     * are cheap: every one of them shares the client's connections.
     *
     * @throws NullPointerException     when {@code name} is null
     * @throws IllegalArgumentException when {@code name} is blank, or (from stage 3 on) has braces that are not
     *                                  a whole Redis Cluster hash tag
     * @throws IllegalStateException    when this client is closed
     */
    DistLock get(String name);

    /** This client's identity, part of every owner record it writes. */
    String clientId();

    /** What this stage promises; the contract suite proves each claim and reproduces the rest. */
    Set<Guarantee> guarantees();

    /** Stops background work and owned connections; held locks are not released (they expire, as after a crash). */
    @Override
    void close();
}
