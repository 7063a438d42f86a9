package dev.lockstep.internal;

/**
 * Runs an interruptible wait as {@link java.util.concurrent.locks.Lock#lock()} must: an interrupt
 * does not end it. The wait is tried again, and the interrupt is kept for the caller, whose thread
 * is interrupted again once the wait is over, whether it succeeded or threw.
 */
public final class Uninterruptibly {

    /** A wait that an interrupt can end. */
    @FunctionalInterface
    public interface Wait {

        /** Waits, and returns once done; throws when interrupted. */
        void run() throws InterruptedException;
    }

    private Uninterruptibly() {
    }

    /** Runs {@code wait} until it returns or throws something other than an interrupt. */
    public static void run(Wait wait) {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    wait.run();
                    return;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
