package dev.lockstep.v4.internal;

/**
 * What one thread (or hold handle) holds of one lock, as its owner last left it.
 *
 * @param depth         its count of holds, 0 when it holds none
 * @param leaseEndNanos until when Redis was last told to keep its lease, in {@link System#nanoTime()}; 0 when it holds none
 */
public record HeldState(int depth, long leaseEndNanos) {

    /** Nothing held. */
    static final HeldState NONE = new HeldState(0, 0);
}
