package dev.lockstep;

import java.util.Set;

/** One client identity, like a {@code RedissonClient}: every lock it hands out shares its connection and id. */
public interface Locks extends AutoCloseable {

    /** The lock called {@code name}; the same name always gives the same lock object. */
    DistLock get(String name);

    /** This client's identity, part of every owner record it writes. */
    String clientId();

    /** What this stage promises; the contract suite proves each claim and reproduces the rest. */
    Set<Guarantee> guarantees();

    /** Stops background work and owned connections; held locks are not released (they expire, as after a crash). */
    @Override
    void close();
}
