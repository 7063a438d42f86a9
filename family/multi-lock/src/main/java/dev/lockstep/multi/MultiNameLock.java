package dev.lockstep.multi;

import dev.lockstep.DistLock;
import dev.lockstep.LeaseLoss;
import dev.lockstep.LockHold;
import dev.lockstep.internal.Args;
import dev.lockstep.internal.ThreadFreeHold;
import dev.lockstep.internal.Uninterruptibly;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * One lock over several locks at once, held only while every one of them is: the first article's
 * MultiLock (Redisson's {@code RedissonMultiLock}), over {@link DistLock}s of any stage or family,
 * on any clients. Not stage 6's {@code MultiLocks}, which is one name on every node.
 *
 * <p><b>No deadlock.</b> A deadlock is a cycle of waits: A holds x and waits for y while B holds y
 * and waits for x. Two rules leave no way to close one. The parts are always taken in one order, by
 * name, whatever order the caller lists them in (parts with equal names, on different clients,
 * keep the caller's order), so two of these locks that share names meet at the first shared name,
 * where the later one waits holding nothing the other needs. And while it holds earlier parts, a
 * call waits for a later one only for a bounded slice: a holder that follows no such order
 * (Redisson's MultiLock, nested locks taken by hand) may be waiting for a part this call holds.
 * When the slice runs out the call gives back everything and starts again after a random pause,
 * both growing with each round up to {@link AllOrNothing#MAX_SLICE}, so rivals stop colliding.
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
        Set<DistLock> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        for (DistLock part : parts) {
            if (!seen.add(Objects.requireNonNull(part, "parts must not hold null"))) {
                throw new IllegalArgumentException("parts must not hold one lock twice, was " + part.name() + " twice");
            }
        }
        // A stable sort: parts with equal names keep the caller's order.
        this.parts = parts.stream().<DistLock>map(part -> part).sorted(Comparator.comparing(DistLock::name)).toList();
        this.name = String.join("+", this.parts.stream().map(DistLock::name).toList());
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
        // An interrupted try gives its parts back, and the next one starts afresh.
        Uninterruptibly.run(() -> AllOrNothing.acquire(parts, -1, lease));
    }

    /** Blocks until every part is held for its default lease: {@code lock(null)}. */
    @Override
    public void lock() {
        lock(null);
    }

    /** Blocks until every part is held, or the thread is interrupted; then it holds none. */
    @Override
    public void lockInterruptibly() throws InterruptedException {
        AllOrNothing.acquire(parts, -1, null);
    }

    /** One attempt on each part in turn; true when all were taken, else none is held. */
    @Override
    public boolean tryLock() {
        try {
            return AllOrNothing.acquire(parts, 0, null);
        } catch (InterruptedException e) {
            // The thread was interrupted before the call: it takes nothing, and the interrupt stays set.
            Thread.currentThread().interrupt();
            return false;
        }
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
        return AllOrNothing.acquire(parts, Args.waitNanos(Objects.requireNonNull(wait, "wait"), "wait"), lease);
    }

    /** Waits at most {@code wait}, in all, to take every part for {@code lease} as one hold that belongs to no thread. */
    @Override
    public Optional<LockHold> tryAcquire(Duration wait, Duration lease) throws InterruptedException {
        // Each part keeps its hold's deadline: the whole is believed held while every part is.
        return ThreadFreeHold.take(this, this::isHeldByCurrentThread, null, wait, lease);
    }

    /** Sets every part's remaining lease, whatever any of them answers; the first failure is thrown, the others suppressed in it. */
    @Override
    public void extend(Duration lease) {
        Args.within(lease, Args.MIN_LEASE, Args.MAX_LEASE, "lease");
        RuntimeException failed = null;
        for (DistLock part : parts) {
            try {
                part.extend(lease);
            } catch (RuntimeException e) {
                if (failed == null) {
                    failed = e;
                } else {
                    failed.addSuppressed(e);
                }
            }
        }
        if (failed != null) {
            throw failed;
        }
    }

    /** Ends one hold of every part, the last taken first, whatever any of them answers. */
    @Override
    public void unlock() {
        AllOrNothing.release(parts);
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
}
