package dev.lockstep.multi;

import dev.lockstep.DistLock;
import dev.lockstep.LeaseLoss;
import dev.lockstep.internal.Args;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * One lock over several locks at once, held only while every one of them is: the first article's
 * MultiLock (Redisson's {@code RedissonMultiLock}), over {@link DistLock}s of any stage or family,
 * on any clients. Not stage 6's {@code MultiLocks}, which is one name on every node.
 *
 * <p><b>No deadlock.</b> The parts are always taken in one order, by name, whatever order the
 * caller lists them in (parts with equal names, on different clients, keep the caller's order). A
 * composite waits for a part only while it holds parts that come earlier in that order. Two
 * composites that share names therefore take the shared ones in the same order: one of them gets
 * the first shared name, and the other waits there holding nothing it needs. No cycle of waits can
 * form, which is what a deadlock is. Nested locks taken by hand in opposite orders have no such
 * order, and deadlock: with a watchdog, forever.
 *
 * <p><b>All or nothing.</b> A try that runs out of time, an interrupt, or a failure on any part gives
 * back, in reverse order, every part the call took, so a failed call leaves nothing held. Each part
 * keeps its own rules for a call whose outcome is unknown. An unlock ends every part, even when one
 * of them fails; the first failure is thrown, the others are suppressed in it.
 */
public final class MultiNameLock implements DistLock {

    private final List<DistLock> parts;
    private final String name;

    /** A lock over {@code parts}: at least one, none null, none twice. */
    public MultiNameLock(DistLock... parts) {
        this(Arrays.asList(Objects.requireNonNull(parts, "parts")));
    }

    /** A lock over {@code parts}: at least one, none null, none twice. */
    public MultiNameLock(List<? extends DistLock> parts) {
        Objects.requireNonNull(parts, "parts");
        if (parts.isEmpty()) {
            throw new IllegalArgumentException("parts must hold at least one lock, was empty");
        }
        Map<DistLock, Boolean> seen = new IdentityHashMap<>();
        for (DistLock part : parts) {
            Objects.requireNonNull(part, "parts must not hold null");
            if (seen.put(part, true) != null) {
                throw new IllegalArgumentException("parts must not hold one lock twice, was " + part.name() + " twice");
            }
        }
        List<DistLock> ordered = new ArrayList<>(parts);
        ordered.sort(Comparator.comparing(DistLock::name));
        this.parts = Collections.unmodifiableList(ordered);
        this.name = String.join("+", ordered.stream().map(DistLock::name).toList());
    }

    /** The parts, in the order they are taken. */
    public List<DistLock> parts() {
        return parts;
    }

    /** The parts' names, in the order they are taken, joined with {@code +}. */
    @Override
    public String name() {
        return name;
    }

    /** Blocks until every part is held for {@code lease} (null: each part's default), ignoring interrupts. */
    @Override
    public void lock(Duration lease) {
        takeAll(part -> {
            part.lock(lease);
            return true;
        });
    }

    /** Blocks until every part is held for its default lease: {@code lock(null)}. */
    @Override
    public void lock() {
        lock(null);
    }

    /** Blocks until every part is held, or the thread is interrupted; then it holds none. */
    @Override
    public void lockInterruptibly() throws InterruptedException {
        takeAll(part -> {
            part.lockInterruptibly();
            return true;
        });
    }

    /** One attempt on each part in turn; true when all were taken, else none is held. */
    @Override
    public boolean tryLock() {
        return takeAll(DistLock::tryLock);
    }

    /** Waits at most {@code time} {@code unit}s, in all, to take every part; true when taken. */
    @Override
    public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
        Objects.requireNonNull(unit, "unit");
        return tryLock(Duration.ofNanos(Math.max(0, unit.toNanos(time))), null);
    }

    /** Waits at most {@code wait}, in all, to take every part for {@code lease}; true when taken. */
    @Override
    public boolean tryLock(Duration wait, Duration lease) throws InterruptedException {
        long waitNanos = Args.waitNanos(Objects.requireNonNull(wait, "wait"), "wait");
        long deadline = System.nanoTime() + waitNanos;
        return takeAll(part -> part.tryLock(
                waitNanos < 0 ? wait : Duration.ofNanos(Math.max(0, deadline - System.nanoTime())), lease));
    }

    /** Ends one hold of every part, the last taken first, whatever any of them answers. */
    @Override
    public void unlock() {
        RuntimeException failed = giveBack(parts);
        if (failed != null) {
            throw failed;
        }
    }

    /** Whether this thread holds every part. */
    @Override
    public boolean isHeldByCurrentThread() {
        return parts.stream().allMatch(DistLock::isHeldByCurrentThread);
    }

    /** Whether any part is held by anyone: then taking the whole now would wait. */
    @Override
    public boolean isLocked() {
        return parts.stream().anyMatch(DistLock::isLocked);
    }

    /** The shortest lease left on any part: the whole is held no longer. */
    @Override
    public Duration remainingLease() {
        return parts.stream().map(DistLock::remainingLease).min(Comparator.naturalOrder()).orElseThrow();
    }

    /** How many times this thread holds the whole: the fewest holds it has of any part. */
    @Override
    public int holdCount() {
        return parts.stream().mapToInt(DistLock::holdCount).min().orElseThrow();
    }

    /** Force-unlocks every part; true when any part was held. */
    @Override
    public boolean forceUnlock() {
        boolean any = false;
        for (DistLock part : parts) {
            any |= part.forceUnlock();
        }
        return any;
    }

    /** {@code listener} hears of each part's lost lease: the whole is lost with any one of them. */
    @Override
    public void onLeaseLost(Consumer<LeaseLoss> listener) {
        Objects.requireNonNull(listener, "listener");
        parts.forEach(part -> part.onLeaseLost(listener));
    }

    @Override
    public String toString() {
        return "MultiNameLock" + parts;
    }

    /** One way to take one part: true when taken. */
    @FunctionalInterface
    private interface Take<E extends Exception> {

        boolean on(DistLock part) throws E;
    }

    /** Takes every part in order with {@code take}; on a refusal or a failure gives back what it took. */
    private <E extends Exception> boolean takeAll(Take<E> take) throws E {
        List<DistLock> taken = new ArrayList<>();
        try {
            for (DistLock part : parts) {
                if (!take.on(part)) {
                    break;
                }
                taken.add(part);
            }
        } catch (Exception e) {
            RuntimeException failed = giveBack(taken);
            if (failed != null) {
                e.addSuppressed(failed);
            }
            throw e;
        }
        if (taken.size() == parts.size()) {
            return true;
        }
        RuntimeException failed = giveBack(taken);
        if (failed != null) {
            throw failed;
        }
        return false;
    }

    /** Unlocks {@code taken}, the last first, each whatever the others do: the first failure, the rest suppressed in it, or null. */
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
