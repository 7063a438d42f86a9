package dev.lockstep.testkit;

import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * Where a test or scenario runs when others run beside it in this JVM. Most only wait on
 * conditions and share the slot; the few whose verdict hangs on timing (a wake-up within 30 ms, a
 * renewal before a 300 ms lease runs out) or that disturb the whole JVM (a loop of full
 * collections) run alone: they wait for those running to finish, and those that come after wait
 * for them. Fair, so a lone one is not starved by a stream of shared ones.
 */
public final class TimingSlot {

    private static final ReentrantReadWriteLock SLOT = new ReentrantReadWriteLock(true);

    private TimingSlot() {
    }

    /** Takes the slot, alone when {@code alone}, else beside the others; closing the hold gives it back. */
    public static Hold take(boolean alone) throws InterruptedException {
        Lock lock = alone ? SLOT.writeLock() : SLOT.readLock();
        lock.lockInterruptibly();
        return lock::unlock;
    }

    /** A taken slot. */
    @FunctionalInterface
    public interface Hold extends AutoCloseable {

        /** Gives the slot back. */
        @Override
        void close();
    }
}
