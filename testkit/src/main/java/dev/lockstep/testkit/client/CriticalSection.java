package dev.lockstep.testkit.client;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A critical section that contenders pass through under a lock: it counts the passes that found
 * someone else inside, and keeps a counter that a read-modify-write updates unguarded, so two
 * contenders inside at once lose an update.
 */
public final class CriticalSection {

    private final AtomicInteger inside = new AtomicInteger();
    private final AtomicInteger overlaps = new AtomicInteger();
    /** Guarded by nothing but the lock under test: that is the point. */
    private int counter;

    /** One pass: a read, a yield for an overlapping caller to show, and the write of the read value plus one. */
    public void pass() {
        if (inside.incrementAndGet() != 1) {
            overlaps.incrementAndGet();
        }
        int read = counter;
        Thread.yield();
        counter = read + 1;
        inside.decrementAndGet();
    }

    /** How many passes found someone else inside. */
    public int overlaps() {
        return overlaps.get();
    }

    /** The counter's value: the number of passes, unless an overlap lost an update. Read after the contenders ended. */
    public int counter() {
        return counter;
    }

    /** What each contender does on one of its turns: {@code contender} is its index. */
    @FunctionalInterface
    public interface Turn {

        /** One turn of contender {@code contender}. */
        void take(int contender) throws Exception;
    }

    /**
     * Runs {@code turns} turns on each of {@code contenders} threads at once and waits for all of
     * them; the first failure is thrown.
     */
    public static void contend(int contenders, int turns, Turn turn) throws InterruptedException, ExecutionException {
        ExecutorService pool = Executors.newFixedThreadPool(contenders, Threads.factory("contender"));
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int c = 0; c < contenders; c++) {
                int contender = c;
                done.add(pool.submit(() -> {
                    for (int i = 0; i < turns; i++) {
                        turn.take(contender);
                    }
                    return null;
                }));
            }
            for (Future<?> each : done) {
                each.get();
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
