package dev.lockstep.testkit.scenario;

import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Where a test or scenario runs when others run beside it in this JVM. Most only wait on
 * conditions and share the slot; the few whose verdict hangs on timing (a wake-up within 30 ms, a
 * renewal before a 300 ms lease runs out), or that disturb every thread of the JVM (a loop of full
 * collections, a thread dump per Redis call), run alone.
 *
 * <p>Those that share never wait for a lone one that has not begun: a lone one starts when nothing
 * else runs, which in a test class is once the others are done. So none of them waits for a
 * running crowd to drain while the rest stand idle. A thread of JUnit's pool that waits here is
 * replaced for the while ({@link ForkJoinPool#managedBlock}), so the others keep their threads.
 */
public final class TimingSlot {

    private static final ReentrantLock LOCK = new ReentrantLock();
    private static final Condition CHANGED = LOCK.newCondition();
    private static int sharing;
    private static boolean aloneRunning;

    private TimingSlot() {
    }

    /** Takes the slot, alone when {@code alone}, else beside the others; closing the hold gives it back. */
    public static Hold take(boolean alone) throws InterruptedException {
        ForkJoinPool.managedBlock(new ForkJoinPool.ManagedBlocker() {
            private boolean entered;

            @Override
            public boolean block() throws InterruptedException {
                LOCK.lock();
                try {
                    while (!mayEnter(alone)) {
                        CHANGED.await();
                    }
                    enter(alone);
                    entered = true;
                    return true;
                } finally {
                    LOCK.unlock();
                }
            }

            @Override
            public boolean isReleasable() {
                if (entered) {
                    return true;
                }
                LOCK.lock();
                try {
                    if (mayEnter(alone)) {
                        enter(alone);
                        entered = true;
                    }
                    return entered;
                } finally {
                    LOCK.unlock();
                }
            }
        });
        return () -> leave(alone);
    }

    private static boolean mayEnter(boolean alone) {
        return !aloneRunning && (!alone || sharing == 0);
    }

    private static void enter(boolean alone) {
        if (alone) {
            aloneRunning = true;
        } else {
            sharing++;
        }
    }

    private static void leave(boolean alone) {
        LOCK.lock();
        try {
            if (alone) {
                aloneRunning = false;
            } else {
                sharing--;
            }
            CHANGED.signalAll();
        } finally {
            LOCK.unlock();
        }
    }

    /** A taken slot. */
    @FunctionalInterface
    public interface Hold extends AutoCloseable {

        /** Gives the slot back. */
        @Override
        void close();
    }
}
