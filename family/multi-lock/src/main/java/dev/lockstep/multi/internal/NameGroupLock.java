package dev.lockstep.multi.internal;

import dev.lockstep.internal.AbstractLocks;
import dev.lockstep.internal.Caller;
import dev.lockstep.internal.Args;
import dev.lockstep.internal.Lease;
import dev.lockstep.internal.LuaScript;
import dev.lockstep.internal.Patience;
import dev.lockstep.v3.internal.RedissonLayout;
import dev.lockstep.v4.internal.GiveBacks;
import dev.lockstep.v4.internal.HeldState;
import dev.lockstep.v4.internal.Watchdog;
import dev.lockstep.v4.internal.WatchdogLock;
import dev.lockstep.v5.internal.AcquireLoop;
import dev.lockstep.v5.internal.Subscriber;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;

/**
 * Several names of one node (one Redis server, or one Cluster slot) as one stage-5 lock: taken all
 * or none in one script, renewed as one hold, released in one script. Each name stays a lock of its
 * own in Redis, in stage 3's layout, so a single-name lock of the name, ours or Redisson's, and this
 * one exclude each other. A waiter sleeps on the release channel of the name that stopped it.
 *
 * <p>A thread may hold a name through this lock and others of its client at once; each script
 * writes the name's count as the client keeps it, summed over those locks ({@link NameHolds}).
 */
public final class NameGroupLock extends WatchdogLock {

    private static final LuaScript LOCK_ALL = LuaScript.load(NameGroupLock.class, "lock-all.lua");
    private static final LuaScript UNLOCK_ALL = LuaScript.load(NameGroupLock.class, "unlock-all.lua");
    private static final LuaScript RENEW_ALL = LuaScript.load(NameGroupLock.class, "renew-all.lua");
    /** The name that stopped the calling thread's last try, for the wait that follows. */
    private static final ThreadLocal<String> BLOCKER = new ThreadLocal<>();

    private final List<String> names;
    private final List<String> channels;
    private final Subscriber subscriber;
    private final NameHolds nameHolds;

    /**
     * The lock called {@code name} over {@code names} (sorted, distinct, one node's) of {@code client},
     * renewed by {@code watchdog}, waiting through {@code subscriber}, its holds counted in {@code nameHolds}.
     */
    public NameGroupLock(String name, List<String> names, AbstractLocks client, Watchdog watchdog,
            Subscriber subscriber, NameHolds nameHolds) {
        super(name, client, watchdog);
        this.names = List.copyOf(names);
        this.channels = this.names.stream().map(RedissonLayout::releaseChannel).toList();
        this.subscriber = subscriber;
        this.nameHolds = nameHolds;
        nameHolds.add(this);
    }

    /** The names, in the order the scripts take them. */
    public List<String> names() {
        return names;
    }

    /** What thread {@code threadId} holds of this lock. */
    HeldState holdOf(long threadId) {
        return heldBy(threadId);
    }

    /**
     * Stage 5's wait, on the channel of whichever name stopped the last try: a waiter whose try is
     * stopped by another name than the one it sleeps on moves to that name's channel, where the
     * try that moved it stands for the first try before subscribing.
     */
    @Override
    protected boolean acquire(Lease lease, long waitNanos) throws InterruptedException {
        checkNotInterrupted();
        long deadline = System.nanoTime() + waitNanos;
        Patience patience = patience(waitNanos);
        AcquireLoop loop = new AcquireLoop(name(), subscriber, options().spinInterval().multipliedBy(10),
                this::isHeldByCurrentThread, () -> options().spinInterval().toNanos());
        GroupTries tries = new GroupTries(this, names.get(0), null, lease, patience);
        while (true) {
            long left = waitNanos < 0 ? waitNanos : Math.max(0, deadline - System.nanoTime());
            GroupTries here = tries;
            try {
                return loop.run(RedissonLayout.releaseChannel(here.watching()), left, here, first -> here);
            } catch (GroupTries.StoppedElsewhere moved) {
                if (waitNanos >= 0 && deadline - System.nanoTime() <= 0) {
                    return false;
                }
                tries = new GroupTries(this, moved.name(), moved.holderLease(), lease, patience);
            } finally {
                BLOCKER.remove();
            }
        }
    }

    /**
     * One try for every name, for {@link GroupTries}: null when taken, else the lease left to the
     * holder of the name that stopped it ({@link #blocker()}), -1 when Redis could not be asked.
     */
    Long tryOnce(Lease lease, Patience patience) {
        BLOCKER.remove();
        return patience.attempt(() -> ask("acquire", () -> tryAcquire(lease)), -1L);
    }

    /** The name that stopped the calling thread's last try, or null. */
    String blocker() {
        return BLOCKER.get();
    }

    @Override
    protected LuaScript lockScript() {
        return LOCK_ALL;
    }

    @Override
    protected List<String> lockKeys() {
        return names;
    }

    /** The lease, the owner, and the caller's holds of each name, through every lock of this client. */
    @Override
    protected List<String> lockArgs(Lease lease, String owner, int holds) {
        long thread = Caller.currentId();
        List<String> args = new ArrayList<>(names.size() + 2);
        args.add(Long.toString(lease.millis()));
        args.add(owner);
        names.forEach(name -> args.add(Integer.toString(nameHolds.of(name, thread))));
        return args;
    }

    /** The script answers {@code {i, pttl}} when name {@code i} stopped it, nil when it took them all. */
    @Override
    protected Long blockedFor(Object reply) {
        if (reply instanceof List<?> stopped) {
            BLOCKER.set(names.get(((Long) stopped.get(0)).intValue() - 1));
            return (Long) stopped.get(1);
        }
        BLOCKER.remove();
        return null;
    }

    /**
     * Renews (or, asked by the owner, extends) every name for {@code leaseMillis}; a name that
     * {@code owner} holds through another lock of the client too is never shortened, since that
     * lock's hold believes in its own lease.
     */
    @Override
    protected boolean renew(String owner, long leaseMillis) {
        long thread = threadOf(owner);
        int mine = heldBy(thread).depth();
        List<String> args = new ArrayList<>(names.size() + 2);
        args.add(Long.toString(leaseMillis));
        args.add(owner);
        names.forEach(name -> args.add(nameHolds.of(name, thread) > mine ? "1" : "0"));
        return Long.valueOf(1).equals(RENEW_ALL.run(redis(), names, args));
    }

    /**
     * Ends one hold of {@code owner}'s, which had {@code holds}: each name's count is the owner's
     * holds of it through the client's other locks, plus {@code holds}, less one.
     */
    @Override
    protected Object unlockScript(String owner, int holds) {
        long thread = threadOf(owner);
        return nameHolds.writing(thread, () -> {
            int mine = heldBy(thread).depth();
            return unlockAll(owner, holds, names, name -> nameHolds.of(name, thread) - mine + holds);
        });
    }

    /**
     * A lost hold's share of the count is taken off at once on the names its owner still holds through
     * other locks, whose renewals would keep it there past its own lease. A name this hold alone kept
     * is left to its lease, as at stage 4: freed sooner, it could let another in while the owner has
     * yet to hear of its loss.
     */
    @Override
    protected Consumer<String> lostHoldUndo() {
        return GiveBacks.retrying(owner -> {
            long thread = threadOf(owner);
            nameHolds.writing(thread, () -> {
                int mine = heldBy(thread).depth();
                List<String> shared = names.stream().filter(name -> nameHolds.of(name, thread) > mine).toList();
                return shared.isEmpty() ? null : unlockAll(owner, 1, shared, name -> nameHolds.of(name, thread) - mine + 1);
            });
        }, options(), this::isClosed);
    }

    /**
     * The unlock script over {@code keys}: one of {@code holds} holds of {@code owner}'s ends, each name's
     * count before it given. A name this lock's share leaves, while other locks of the owner still hold
     * it, keeps the lease they believe in, no longer: this lock's own lease may have been the longer.
     */
    private Object unlockAll(String owner, int holds, List<String> keys, ToIntFunction<String> countBefore) {
        long thread = threadOf(owner);
        List<String> args = new ArrayList<>(3 * keys.size() + 3);
        args.add(owner);
        args.add(RedissonLayout.RELEASED);
        args.add(Integer.toString(holds));
        keys.forEach(name -> args.add(Integer.toString(countBefore.applyAsInt(name))));
        keys.forEach(name -> args.add(RedissonLayout.releaseChannel(name)));
        keys.forEach(name -> args.add(Long.toString(nameHolds.leaseLeftWithout(this, name, thread))));
        return UNLOCK_ALL.run(redis(), keys, args);
    }

    /** The calling thread's takes and unlocks, one at a time with its other writes of names' counts ({@link NameHolds#writing}). */
    @Override
    protected <T> T writingCounts(Supplier<T> write) {
        return nameHolds.writing(Caller.currentId(), write);
    }

    /** Force-unlocks each name; true when any was held. */
    @Override
    public boolean forceUnlock() {
        return ask("forceUnlock", () -> {
            boolean any = false;
            for (int i = 0; i < names.size(); i++) {
                any |= RedissonLayout.forceUnlock(redis(), names.get(i), channels.get(i));
            }
            return any;
        });
    }

    /** Whether any name is held by anyone: then taking them now would wait. */
    @Override
    public boolean isLocked() {
        return ask("isLocked", () -> redis().exists(names.toArray(String[]::new)) > 0);
    }

    /** The shortest lease left on any name: the whole is held no longer. */
    @Override
    public Duration remainingLease() {
        return ask("remainingLease", () -> names.stream().map(name -> Args.remaining(redis().pttl(name)))
                .min(Duration::compareTo).orElseThrow());
    }
}
