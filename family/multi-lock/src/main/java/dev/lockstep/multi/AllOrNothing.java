package dev.lockstep.multi;

import dev.lockstep.DistLock;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * How a {@link MultiNameLock} takes and gives back its parts: all of them or none, in rounds that
 * never wait long while holding a part, so that no holder can deadlock them (see the lock's javadoc).
 */
final class AllOrNothing {

    /** How long a call holding earlier parts first waits for a later one, and first pauses before it starts again. */
    static final Duration FIRST_SLICE = Duration.ofMillis(50);
    /** The longest slice and pause, however many rounds a call has started again. */
    static final Duration MAX_SLICE = Duration.ofSeconds(1);
    private static final Duration FOREVER = ChronoUnit.FOREVER.getDuration();

    private AllOrNothing() {
    }

    /** Ends one hold of each of {@code parts}, the last first, whatever the others answer; throws the first failure. */
    static void release(List<DistLock> parts) {
        throwIfFailed(giveBack(parts));
    }

    /**
     * Takes every one of {@code parts}, in order, within {@code waitNanos} (negative: forever), in
     * rounds: the first part with whatever wait is left, each later one for at most the round's
     * slice; a round that misses a part gives back what it took and pauses before the next.
     */
    static boolean acquire(List<DistLock> parts, long waitNanos, Duration lease) throws InterruptedException {
        long deadline = System.nanoTime() + waitNanos;
        for (int round = 0; ; round++) {
            Duration slice = slice(round);
            List<DistLock> taken = new ArrayList<>();
            try {
                for (DistLock part : parts) {
                    Duration left = waitNanos < 0 ? FOREVER
                            : Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
                    if (!part.tryLock(taken.isEmpty() || left.compareTo(slice) < 0 ? left : slice, lease)) {
                        break;
                    }
                    taken.add(part);
                }
            } catch (InterruptedException | RuntimeException e) {
                RuntimeException failed = giveBack(taken);
                if (failed != null) {
                    e.addSuppressed(failed);
                }
                throw e;
            }
            if (taken.size() == parts.size()) {
                return true;
            }
            giveBackRound(taken);
            long pause = ThreadLocalRandom.current().nextLong(slice.toNanos() + 1);
            if (waitNanos >= 0 && deadline - System.nanoTime() <= pause) {
                return false;
            }
            TimeUnit.NANOSECONDS.sleep(pause);
        }
    }

    /** Round {@code round}'s slice: {@link #FIRST_SLICE}, doubled each round, at most {@link #MAX_SLICE}. */
    private static Duration slice(int round) {
        Duration grown = FIRST_SLICE.multipliedBy(1L << Math.min(round, 5));
        return grown.compareTo(MAX_SLICE) < 0 ? grown : MAX_SLICE;
    }

    private static void throwIfFailed(RuntimeException failed) {
        if (failed != null) {
            throw failed;
        }
    }

    /**
     * Gives back what a round took. An interrupt that came meanwhile (on a virtual thread it closes the
     * socket under the unlock) is what the caller hears of when an unlock failed: it asked to be
     * interruptible, and a part whose unlock failed keeps its hold only until its lease ends.
     */
    private static void giveBackRound(List<DistLock> taken) throws InterruptedException {
        RuntimeException failed = giveBack(taken);
        if (failed != null && Thread.interrupted()) {
            InterruptedException interrupted = new InterruptedException("interrupted while giving back the parts taken");
            interrupted.addSuppressed(failed);
            throw interrupted;
        }
        throwIfFailed(failed);
    }

    /** Unlocks {@code taken}, the last first, whatever the others do: the first failure (the rest in it), or null. */
    private static RuntimeException giveBack(List<DistLock> taken) {
        RuntimeException first = null;
        for (int i = taken.size() - 1; i >= 0; i--) {
            try {
                taken.get(i).unlock();
            } catch (RuntimeException e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        return first;
    }
}
