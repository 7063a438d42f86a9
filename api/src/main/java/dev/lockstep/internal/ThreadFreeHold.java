package dev.lockstep.internal;

import dev.lockstep.DistLock;
import dev.lockstep.FencedLock;
import dev.lockstep.LeaseLoss;
import dev.lockstep.LockException;
import dev.lockstep.LockHold;
import dev.lockstep.RedisRefusedException;
import java.lang.ref.Cleaner;
import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.slf4j.LoggerFactory;

/**
 * A {@link LockHold}: an owner of its own ({@link Caller}), on whose behalf the lock's thread-bound
 * calls run on whichever thread makes them. A hold dropped without a release is released when the
 * garbage collector finds it, and its lease ends it before that. Only the handle keeps its
 * {@code onLost} listeners, so a listener that mentions the handle cannot keep it from being found.
 */
public final class ThreadFreeHold implements LockHold {

    /** Negative: never a thread's id. */
    private static final AtomicLong NEXT_ID = new AtomicLong(-1);
    private static final Map<Long, State> OPEN = new ConcurrentHashMap<>();
    private static final Cleaner DROPPED = Cleaner.create(Daemons.factory("LockHold-dropped"));

    private final State state;
    private final List<Consumer<LeaseLoss>> listeners = new CopyOnWriteArrayList<>();

    private ThreadFreeHold(State state) {
        this.state = state;
    }

    /**
     * Waits at most {@code wait} to take {@code lock} for {@code lease} (null: the stage's default) as
     * a hold of its own. {@code believesHeld} says, locally and instantly, whether the owner acting
     * holds it as far as the lock's calls saw; {@code unrenewed} is the lease that runs out on its
     * own, unless extended, for a lock that keeps no deadline (null: the lock keeps the hold's
     * deadline, and {@code believesHeld} turns false when it passes).
     */
    public static Optional<LockHold> take(DistLock lock, BooleanSupplier believesHeld, Duration unrenewed,
            Duration wait, Duration lease) throws InterruptedException {
        State state = new State(lock, believesHeld, unrenewed != null, NEXT_ID.getAndDecrement());
        OPEN.put(state.caller.id(), state);
        long sent = System.nanoTime();
        boolean taken = false;
        try {
            taken = Caller.actingFor(state.caller, () -> lock.tryLock(wait, lease));
        } finally {
            if (!taken) {
                OPEN.remove(state.caller.id());
            }
        }
        if (!taken) {
            return Optional.empty();
        }
        if (unrenewed != null) {
            state.leaseUntil(sent + unrenewed.toNanos());
        }
        ThreadFreeHold hold = new ThreadFreeHold(state);
        state.handle = new WeakReference<>(hold);
        DROPPED.register(hold, state::dropped);
        return Optional.of(hold);
    }

    /** Tells the hold {@code loss} is about, if it is one: every lock's loss signal passes through here. */
    public static void lost(LeaseLoss loss) {
        State state = OPEN.get(loss.threadId());
        if (state != null) {
            state.lost(loss);
        }
    }

    @Override
    public String lockName() {
        return state.lock.name();
    }

    @Override
    public boolean isValid() {
        return !state.ended.get() && state.loss == null && System.nanoTime() - state.deadline < 0
                && state.act(state.believesHeld::getAsBoolean);
    }

    @Override
    public OptionalLong token() {
        if (!(state.lock instanceof FencedLock fenced)) {
            return OptionalLong.empty();
        }
        if (state.ended.get()) {
            throw released();
        }
        return OptionalLong.of(state.act(fenced::token));
    }

    @Override
    public void extend(Duration lease) {
        Objects.requireNonNull(lease, "lease must not be null");
        if (state.ended.get()) {
            throw released();
        }
        long sent = System.nanoTime();
        try {
            state.act(() -> {
                state.lock.extend(lease);
                return null;
            });
        } catch (IllegalMonitorStateException gone) {
            state.leaseUntil(sent);
            throw gone;
        } catch (RedisRefusedException refused) {
            // Redis ran nothing: the hold is as it was.
            throw refused;
        } catch (LockException unknown) {
            // Either lease may be the one Redis keeps, so trust the shorter.
            state.leaseUntil(Math.min(state.deadline, sent + lease.toNanos()));
            throw unknown;
        }
        // Anything else was refused at the call (a bad lease, a closed client, a stage that cannot extend): nothing was sent.
        state.leaseUntil(sent + lease.toNanos());
    }

    @Override
    public void release() {
        if (!state.ended.compareAndSet(false, true)) {
            throw released();
        }
        state.release();
    }

    @Override
    public void close() {
        if (state.ended.compareAndSet(false, true)) {
            state.release();
        }
    }

    @Override
    public void onLost(Consumer<LeaseLoss> listener) {
        Objects.requireNonNull(listener, "listener must not be null");
        listeners.add(listener);
        LeaseLoss loss = state.loss;
        if (loss != null && listeners.remove(listener)) {
            listener.accept(loss);
        }
    }

    /** Tells each listener of {@code loss} once; one failing listener does not silence the rest. */
    private void tell(LeaseLoss loss) {
        for (Consumer<LeaseLoss> listener : listeners) {
            if (listeners.remove(listener)) {
                try {
                    listener.accept(loss);
                } catch (RuntimeException e) {
                    LoggerFactory.getLogger(ThreadFreeHold.class).warn("a loss listener of {} failed", state.caller.name(), e);
                }
            }
        }
    }

    @Override
    public String toString() {
        return state.caller.name();
    }

    private IllegalMonitorStateException released() {
        return new IllegalMonitorStateException(state.caller.name() + " was released already");
    }

    /**
     * All a hold knows apart from the handle and its listeners, so that the cleaner can release a
     * dropped handle's hold: nothing here may reach the handle but weakly.
     */
    private static final class State {

        final DistLock lock;
        final BooleanSupplier believesHeld;
        final Caller caller;
        final AtomicBoolean ended = new AtomicBoolean();
        volatile WeakReference<ThreadFreeHold> handle = new WeakReference<>(null);
        volatile LeaseLoss loss;
        /** Set once the handle was collected: a watchdog stops renewing then. */
        volatile boolean dropped;
        /** Whether the handle keeps the deadline: where the lock keeps one, two clocks would disagree. */
        final boolean keepsDeadline;
        /** Until when the lease surely runs, in {@link System#nanoTime()}, if the handle keeps the deadline. */
        volatile long deadline = Long.MAX_VALUE;

        State(DistLock lock, BooleanSupplier believesHeld, boolean keepsDeadline, long id) {
            this.lock = lock;
            this.believesHeld = believesHeld;
            this.keepsDeadline = keepsDeadline;
            this.caller = new Caller(id, "hold " + -id + " of lock '" + lock.name() + "'", () -> !dropped);
        }

        void leaseUntil(long nanoTime) {
            if (keepsDeadline) {
                deadline = nanoTime;
            }
        }

        <T> T act(Caller.Call<T, RuntimeException> call) {
            return Caller.actingFor(caller, call);
        }

        void release() {
            try {
                act(() -> {
                    lock.unlock();
                    return null;
                });
            } finally {
                OPEN.remove(caller.id());
            }
        }

        void lost(LeaseLoss lost) {
            loss = lost;
            OPEN.remove(caller.id());
            ThreadFreeHold hold = handle.get();
            if (hold != null) {
                hold.tell(lost);
            }
        }

        /** The handle was collected unreleased: release its hold now, as its holder would have. */
        void dropped() {
            if (ended.compareAndSet(false, true)) {
                try {
                    release();
                } catch (RuntimeException e) {
                    // Its lease ends it.
                } finally {
                    dropped = true;
                }
            }
        }
    }
}
