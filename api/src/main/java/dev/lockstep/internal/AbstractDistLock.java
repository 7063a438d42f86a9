package dev.lockstep.internal;

import dev.lockstep.DistLock;
import dev.lockstep.Guarantee;
import dev.lockstep.LeaseLoss;
import dev.lockstep.LockException;
import dev.lockstep.LockHold;
import dev.lockstep.LockOptions;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.LoggerFactory;

/**
 * The skeleton every stage extends, so a stage's class holds only its idea: argument checks, the
 * {@link java.util.concurrent.locks.Lock} adapters, the default wait ({@link SpinLoop}), and a
 * per-thread record of what this process believes it holds. Naming, the client's Redis and typed
 * errors come from {@link ClientBoundLock}; the count of callers' holds from {@link CallerHolds}.
 *
 * <p>A stage implements one attempt ({@link #tryAcquireOnce}) and one release ({@link #release}).
 */
public abstract class AbstractDistLock extends ClientBoundLock implements DistLock {

    /** A wait without end, as {@link Args#waitNanos} gives it. */
    private static final long FOREVER = -1;

    private final CallerHolds callerHolds;
    private final List<Consumer<LeaseLoss>> lossListeners = new CopyOnWriteArrayList<>();

    /** The lock called {@code name}, owned by {@code client}. */
    protected AbstractDistLock(String name, AbstractLocks client) {
        super(name, client);
        this.callerHolds = new CallerHolds(name(), client.options().observer(),
                () -> client.keep(this), () -> client.letGo(this));
    }

    /** One attempt to take the lock for {@code lease}; true when taken. */
    protected abstract boolean tryAcquireOnce(Lease lease);

    /** Releases the current thread's hold; from v2 on, throws {@link IllegalMonitorStateException} for a non-owner. */
    protected abstract void release();

    /** Local bookkeeping only: true from a successful acquisition until this thread's unlock, even if the lease ran out. */
    @Override
    public boolean isHeldByCurrentThread() {
        return ownerValue() != null;
    }

    /**
     * Local and instant: whether the calling owner holds the lock as far as this client can tell, as
     * a hold's {@code isValid()} asks it. By default {@link #isHeldByCurrentThread()}, local in
     * every stage that does not ask Redis instead.
     */
    protected boolean believesHeld() {
        return isHeldByCurrentThread();
    }

    /** Whether the calling owner has holds that this object's calls took and have not ended, whatever Redis says. */
    protected final boolean countsHolds() {
        return callerHolds.has(Caller.currentId());
    }

    /** Every owner's holds of this lock object, as its calls counted them. */
    final List<OwnerHolds> owners() {
        return callerHolds.owners();
    }

    /** Stages before v4 cannot tell that a lease ran out, so they keep the listener and never call it. */
    @Override
    public final void onLeaseLost(Consumer<LeaseLoss> listener) {
        lossListeners.add(Objects.requireNonNull(listener, "listener must not be null"));
    }

    /** Tells every {@link #onLeaseLost} listener about {@code loss}; one failing listener does not silence the rest. */
    protected final void signalLeaseLost(LeaseLoss loss) {
        options().observer().leaseLost(loss);
        ThreadFreeHold.lost(loss);
        for (Consumer<LeaseLoss> listener : lossListeners) {
            try {
                listener.accept(loss);
            } catch (RuntimeException e) {
                LoggerFactory.getLogger(getClass()).warn("a lease-loss listener of lock '{}' failed", name(), e);
            }
        }
    }

    @Override
    public final void lock() {
        lock(null);
    }

    @Override
    public final void lock(Duration lease) {
        Lease leaseAsked = lease(lease);
        long started = System.nanoTime();
        Uninterruptibly.run(() -> callerHolds.counted(started, acquire(leaseAsked, FOREVER)));
    }

    @Override
    public final void lockInterruptibly() throws InterruptedException {
        long started = System.nanoTime();
        Lease lease = lease(null);
        callerHolds.counted(started, client().acquiring(FOREVER, () -> acquire(lease, FOREVER)));
    }

    @Override
    public final boolean tryLock() {
        long started = System.nanoTime();
        return callerHolds.counted(started, attempt(lease(null)));
    }

    @Override
    public final boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
        if (unit == null) {
            throw new NullPointerException("unit must not be null");
        }
        long waitNanos = Args.waitNanos(Duration.ofNanos(Math.max(0, unit.toNanos(time))), "time");
        long started = System.nanoTime();
        Lease lease = lease(null);
        return callerHolds.counted(started, client().acquiring(waitNanos, () -> acquire(lease, waitNanos)));
    }

    @Override
    public final boolean tryLock(Duration wait, Duration lease) throws InterruptedException {
        long waitNanos = Args.waitNanos(wait, "wait");
        long started = System.nanoTime();
        Lease asked = lease(lease);
        return callerHolds.counted(started, client().acquiring(waitNanos, () -> acquire(asked, waitNanos)));
    }

    @Override
    public final Optional<LockHold> tryAcquire(Duration wait, Duration lease) throws InterruptedException {
        // A stage that tells a lost lease keeps the hold's deadline itself: the handle asks it, and keeps none of its own.
        boolean keepsDeadline = client().guarantees().contains(Guarantee.LEASE_LOSS_SIGNAL);
        Duration bound = keepsDeadline ? null : lease != null ? lease : defaultLease();
        return ThreadFreeHold.take(this, this::believesHeld, bound, wait, lease);
    }

    @Override
    public final void extend(Duration lease) {
        Lease fixed = new Lease(Args.within(lease, Args.MIN_LEASE, Args.MAX_LEASE, "lease").toMillis(), true);
        ask("extend", () -> {
            extendHold(fixed);
            return null;
        });
    }

    /**
     * Sets the calling thread's hold's remaining lease to {@code lease}, owner-checked; throws
     * {@link IllegalMonitorStateException} when it holds nothing. Stage 1 cannot check an owner.
     */
    protected void extendHold(Lease lease) {
        throw new UnsupportedOperationException("lock '" + name() + "': this stage cannot tell its holder's key from "
                + "another's, so it cannot extend only its own (the owner check comes in stage 2)");
    }

    /** The key exists. */
    @Override
    public boolean isLocked() {
        return ask("isLocked", () -> redis().exists(key()));
    }

    /** The key's PTTL. */
    @Override
    public Duration remainingLease() {
        return ask("remainingLease", () -> Args.remaining(redis().pttl(key())));
    }

    /** Stages 1 and 2 cannot re-enter: 1 while this thread's owner value is noted, else 0. */
    @Override
    public int holdCount() {
        return ownerValue() != null ? 1 : 0;
    }

    /** A plain {@code DEL}: stages 1 and 2 have no release channel, so their waiters notice at their next spin. */
    @Override
    public boolean forceUnlock() {
        return ask("forceUnlock", () -> redis().del(key()) > 0);
    }

    /** An unlock by a thread that held the lock ends one of its holds, whatever Redis said; the last calls {@link #lastHoldEnded}. */
    @Override
    public final void unlock() {
        try {
            ask("unlock", () -> {
                release();
                return null;
            });
        } finally {
            if (callerHolds.uncounted()) {
                lastHoldEnded();
            }
        }
    }

    /**
     * Called on a thread whose unlock just ended its last hold of this lock, whatever Redis said
     * (also after the lease was lost): a stage forgets here what it kept for the thread's hold, so a
     * pooled thread carries nothing stale. Must not throw.
     */
    protected void lastHoldEnded() {
    }

    /**
     * Takes the lock, waiting up to {@code waitNanos} ({@code -1}: forever). By default the
     * {@link SpinLoop}: try, sleep one spin interval, try again. Later stages replace the sleeping.
     */
    protected boolean acquire(Lease lease, long waitNanos) throws InterruptedException {
        checkNotInterrupted();
        return new SpinLoop(options().spinInterval()).run(waitNanos, patience(waitNanos), () -> attempt(lease));
    }

    /** An acquisition starts with nothing sent when its thread is already interrupted. */
    protected final void checkNotInterrupted() throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException("interrupted before acquiring lock '" + name() + "'");
        }
    }

    /**
     * How long a wait of {@code waitNanos} rides out attempts that cannot reach Redis: ten spin
     * intervals (1 s by default), none for a single try.
     */
    protected Patience patience(long waitNanos) {
        return new Patience(waitNanos == 0 ? Duration.ZERO : options().spinInterval().multipliedBy(10));
    }

    /** One attempt, with a connection failure turned into a {@link LockException} naming this lock. */
    protected final boolean attempt(Lease lease) {
        return ask("acquire", () -> tryAcquireOnce(lease));
    }

    /** The lease an acquisition asks for: {@code requested}, or {@link #defaultLease()} when null. */
    private Lease lease(Duration requested) {
        Duration effective = Args.lease(requested) == null ? defaultLease() : requested;
        return new Lease(Math.max(1, effective.toMillis()), requested != null);
    }

    /** The lease of an acquisition that names none: the fixed {@link LockOptions#lease()} before the watchdog. */
    protected Duration defaultLease() {
        return options().lease();
    }
}
