package dev.lockstep.multi;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/** Critical sections of several contenders, started together, and the ones that overlapped. */
final class Sections {

    private final CountDownLatch start = new CountDownLatch(1);
    private final AtomicInteger inside = new AtomicInteger();
    private final List<String> overlaps = new CopyOnWriteArrayList<>();

    /** Lets every contender begin. */
    void start() {
        start.countDown();
    }

    /** The sections that began while another was running: none when the lock excludes. */
    List<String> overlaps() {
        return overlaps;
    }

    /** Once started, {@code rounds} times: {@code lock}, a 2 ms section, {@code unlock}. */
    Object play(String who, int rounds, Runnable lock, Runnable unlock) throws InterruptedException {
        start.await();
        for (int i = 0; i < rounds; i++) {
            lock.run();
            try {
                if (inside.incrementAndGet() != 1) {
                    overlaps.add(who + " round " + i);
                }
                Thread.sleep(2);
                inside.decrementAndGet();
            } finally {
                unlock.run();
            }
        }
        return null;
    }
}
