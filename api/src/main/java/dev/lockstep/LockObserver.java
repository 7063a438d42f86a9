package dev.lockstep;

/**
 * Told what the locks of one client do, for metrics or logs of your own
 * ({@code dev.lockstep.metrics.MicrometerLockObserver} turns these into Micrometer meters). Every
 * method does nothing unless overridden, runs on the thread where the event happens, and must
 * return quickly and never throw.
 */
public interface LockObserver {

    /** Observes nothing: the default. */
    LockObserver NONE = new LockObserver() {
    };

    /** A thread of this client took lock {@code name} after {@code waitedNanos} in the call (a re-entry counts too). */
    default void acquired(String name, long waitedNanos) {
    }

    /** A {@code tryLock} on {@code name} gave up after {@code waitedNanos}: someone else held it all along. */
    default void timedOut(String name, long waitedNanos) {
    }

    /** A thread of this client ended one hold of {@code name} (an unlock, also one that found the lease gone). */
    default void released(String name) {
    }

    /** A hold was lost before its unlock: see {@link DistLock#onLeaseLost}. */
    default void leaseLost(LeaseLoss loss) {
    }

    /** A lease renewal of {@code name} could not reach Redis; the watchdog keeps trying while the lease lasts. */
    default void renewalFailed(String name, Throwable cause) {
    }

    /** This client subscribed to a lock's release channel for its waiters ({@code true}) or dropped it ({@code false}). */
    default void subscription(String channel, boolean subscribed) {
    }
}
