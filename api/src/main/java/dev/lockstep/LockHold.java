package dev.lockstep;

import java.time.Duration;
import java.util.OptionalLong;
import java.util.function.Consumer;

/**
 * A hold of a lock that belongs to no thread, from {@link DistLock#tryAcquire(Duration, Duration)}:
 * any thread may extend or release it, so it survives a hand-off between threads (async code,
 * virtual threads, a scheduler's callback). It is an owner of its own: it neither re-enters nor is
 * re-entered by the holds of the thread that took it.
 *
 * <pre>{@code
 * try (LockHold hold = lock.tryAcquire(Duration.ofSeconds(2), null).orElseThrow()) {
 *     ...
 * }
 * }</pre>
 */
public interface LockHold extends AutoCloseable {

    /** The lock's name. */
    String lockName();

    /**
     * Whether the hold still counts, as far as this client can tell: not released, not lost, and
     * a lease that nothing renews (an explicit one, or the fixed default before stage 4) not yet
     * run out by this client's clock. Local and instant: it never asks Redis. From stage 4 on the
     * lock keeps the hold's deadline and the hold asks it; before, the hold counts its lease from
     * the call, so after a wait it runs out early, never late.
     */
    boolean isValid();

    /**
     * The hold's fencing token on a lock that hands them out ({@link FencedLock}, stage 7), to send
     * with each write from whichever thread makes it; empty on other locks.
     *
     * @throws IllegalMonitorStateException when the hold was released, or its lease was lost
     */
    OptionalLong token();

    /**
     * Sets the hold's remaining lease to {@code lease} in one owner-checked script: from now on it
     * is a fixed lease, which a watchdog no longer renews. Any thread may call it.
     *
     * @throws NullPointerException           when {@code lease} is null
     * @throws IllegalArgumentException       when {@code lease} is outside 10 ms to 365 days
     * @throws IllegalMonitorStateException   when the hold was released, or Redis no longer has it
     * @throws LeaseLostException             when the hold was lost before the call, or while it was on its way
     *                                        (the old lease ran out before the reply: the new one is given back)
     * @throws UnsupportedOperationException  when the stage cannot tell its holder's key from another's (stage 1)
     * @throws RedisUnreachableException      when Redis does not answer; the lease may or may not be set
     */
    void extend(Duration lease);

    /**
     * Ends the hold, from any thread.
     *
     * @throws IllegalMonitorStateException when the hold was already released, or Redis no longer had it
     * @throws LeaseLostException           when the hold was lost before the call; nothing is sent
     * @throws RedisUnreachableException    when Redis does not answer; the lease still ends the hold
     */
    void release();

    /**
     * {@link #release()}, unless the hold was released already; a hold lost meanwhile throws
     * {@link LeaseLostException}, so a try-with-resources block hears that its work may have overlapped.
     */
    @Override
    void close();

    /**
     * Calls {@code listener} once when the hold is lost, with the same {@link LeaseLoss} the lock's
     * {@link DistLock#onLeaseLost} listeners hear; at once if it is lost already. Only stages that
     * claim {@link Guarantee#LEASE_LOSS_SIGNAL} can tell; {@link #isValid()} still turns false when
     * an explicit lease runs out.
     */
    void onLost(Consumer<LeaseLoss> listener);
}
