package dev.lockstep.v4.internal;

import dev.lockstep.internal.Lease;
import dev.lockstep.LeaseLoss;
import dev.lockstep.LockObserver;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.FutureTask;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.LongFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a client's held leases alive and notices when one is lost. One per client, for all its
 * locks: a renewer thread that calls Redis every third of a lease, and a clock thread that
 * watches each hold's local deadline. They are apart so that a renewal stuck on a dead
 * connection cannot delay the news that the lease has run out. (A renewal stuck on one dead
 * node does delay the client's other renewals by up to a socket timeout; the defaults, a 30 s
 * lease renewed every 10 s, leave ample room for that.)
 *
 * <p>Lease-loss listeners run on a third thread, started only to deliver a loss: a slow listener
 * must not delay the renewals and deadlines of the client's other holds.
 *
 * <p>A hold's deadline is the send time of its last successful renewal (or acquisition) plus
 * the lease, minus a safety margin. Redis set the expiry after that send, so the key lives at
 * least until send + lease: the holder learns of the loss before anyone else can take the lock.
 */
public final class Watchdog implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Watchdog.class);

    private final ScheduledExecutorService renewer;
    private final ScheduledExecutorService clock;
    private final ThreadPoolExecutor notifier;
    private final ThreadPoolExecutor givingBack;
    private final Map<String, GiveBack> pendingGiveBacks = new ConcurrentHashMap<>();
    private final LockObserver observer;
    private volatile boolean closed;

    /** A watchdog whose threads carry {@code clientName} in their names, telling {@code observer} of failed renewals. */
    public Watchdog(String clientName, LockObserver observer) {
        this.observer = observer;
        this.renewer = daemon("lockstep-watchdog-" + clientName);
        this.clock = daemon("lockstep-lease-clock-" + clientName);
        // No thread until a loss is delivered, and none a second after.
        this.notifier = new ThreadPoolExecutor(0, 1, 1, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
                daemonFactory("lockstep-lease-loss-" + clientName));
        this.givingBack = new ThreadPoolExecutor(0, 1, 1, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
                daemonFactory("lockstep-give-back-" + clientName));
    }

    /**
     * Sends {@code giveBack} soon, on a thread of this watchdog: it undoes the grant an interrupted call
     * of {@code owner} on {@code lockName} may have left in Redis. The interrupted thread returns at
     * once instead of waiting for it; the same owner's next call waits for it first
     * ({@link #awaitGiveBack}), so it never undoes a later grant.
     */
    public void giveBackLater(String lockName, String owner, Runnable giveBack) {
        GiveBack task = new GiveBack(lockName + '\n' + owner, giveBack);
        pendingGiveBacks.put(task.key, task);
        try {
            givingBack.execute(task);
        } catch (RejectedExecutionException closedMeanwhile) {
            // The client closed: the grant's lease ends it.
            pendingGiveBacks.remove(task.key, task);
        }
    }

    /** Before {@code owner} asks for {@code lockName}: sends any give-back still pending for it, on this thread, or waits for it. */
    public void awaitGiveBack(String lockName, String owner) {
        GiveBack pending = pendingGiveBacks.get(lockName + '\n' + owner);
        if (pending == null) {
            return;
        }
        pending.run();
        boolean interrupted = false;
        while (true) {
            try {
                pending.get();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            } catch (ExecutionException failed) {
                break;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** A pending give-back, which leaves the table when done. */
    private final class GiveBack extends FutureTask<Void> {

        private final String key;

        GiveBack(String key, Runnable giveBack) {
            super(giveBack, null);
            this.key = key;
        }

        @Override
        protected void done() {
            pendingGiveBacks.remove(key, this);
        }
    }

    /** When a hold of {@code lease}, taken by a request sent at {@code sentNanos}, stops being believed. */
    public static long deadline(long sentNanos, Lease lease) {
        long leaseNanos = TimeUnit.MILLISECONDS.toNanos(lease.millis());
        return sentNanos + leaseNanos - margin(leaseNanos);
    }

    /** A fresh table of holds for lock {@code lockName}, telling {@code onLost} about each hold it loses. */
    public Holds holds(String lockName, Consumer<LeaseLoss> onLost) {
        return new Holds(lockName, onLost, null, null);
    }

    /**
     * As above, and each lost hold is also undone in Redis: {@code undo} gets the hold's owner,
     * named by {@code ownerOf} from its thread's id, and runs on the give-back thread before that
     * owner's next call ({@link #awaitGiveBack}). For a field that something else keeps alive past
     * the hold's own lease: a writer's, in a hash its reads renew.
     */
    public Holds holds(String lockName, Consumer<LeaseLoss> onLost, LongFunction<String> ownerOf, Consumer<String> undo) {
        return new Holds(lockName, onLost, ownerOf, undo);
    }

    /** Stops all renewals, checks and pending loss notices; held leases simply run out, as after a crash. */
    @Override
    public void close() {
        closed = true;
        renewer.shutdownNow();
        clock.shutdownNow();
        notifier.shutdownNow();
        givingBack.shutdownNow();
    }

    /** The holds of one lock, one per holding thread of this client; every call is about the calling thread. */
    public final class Holds {

        private final String lockName;
        private final Consumer<LeaseLoss> onLost;
        private final LongFunction<String> ownerOf;
        private final Consumer<String> undo;
        private final Map<Long, Hold> byThread = new ConcurrentHashMap<>();

        private Holds(String lockName, Consumer<LeaseLoss> onLost, LongFunction<String> ownerOf, Consumer<String> undo) {
            this.lockName = lockName;
            this.onLost = onLost;
            this.ownerOf = ownerOf;
            this.undo = undo;
        }

        /**
         * The calling thread just took the lock with a request sent at {@code sentNanos} for
         * {@code lease}, which the lock script set in Redis. A default lease is renewed with
         * {@code renew} (true: renewed, false: no longer ours, an exception: unknown) from then
         * on, also when it re-enters a hold that had an explicit lease. Throws
         * {@link IllegalStateException} when the watchdog is closed: the caller must give the grant back.
         */
        public void acquired(long sentNanos, Lease lease, BooleanSupplier renew) {
            Thread owner = Thread.currentThread();
            Hold hold = byThread.get(owner.getId());
            boolean fresh = hold == null || !hold.isHeld();
            if (fresh) {
                hold = new Hold(owner);
            }
            try {
                checkOpen();
                hold.acquired(sentNanos, lease, renew);
            } catch (RejectedExecutionException e) {
                hold.stop();
                throw closedError();
            }
            if (fresh) {
                byThread.put(owner.getId(), hold);
            }
        }

        /**
         * Before the calling thread asks Redis for this lock: a hold whose deadline passed is lost now, if
         * the clock has not said so yet, so that its undo is pending before the new request is sent.
         */
        public void settle() {
            Hold hold = byThread.get(Thread.currentThread().getId());
            if (hold != null) {
                hold.loseIfPastDeadline();
            }
        }

        /** How many holds the calling thread has (acquisitions minus unlocks), 0 when it holds none. */
        public int depth() {
            Hold hold = byThread.get(Thread.currentThread().getId());
            return hold != null && hold.isHeld() ? hold.depth : 0;
        }

        /** Whether the calling thread holds the lock: until its last unlock or the moment its lease is lost. */
        public boolean isHeld() {
            Hold hold = byThread.get(Thread.currentThread().getId());
            return hold != null && hold.isHeld();
        }

        /**
         * Before an unlock script runs: throws, and forgets the hold, if the calling thread's lease
         * was lost; otherwise a renewal that finds the field gone meanwhile is the unlock's doing,
         * not a loss. Returns the calling thread's holds before the unlock (0 when it has none).
         */
        public int releasing() {
            long thread = Thread.currentThread().getId();
            Hold hold = byThread.get(thread);
            if (hold == null) {
                return 0;
            }
            // Past its deadline the hold is lost, whether or not the clock has said so yet: isHeld() already says so.
            hold.loseIfPastDeadline();
            if (hold.lostAt != null) {
                byThread.remove(thread);
                throw new IllegalMonitorStateException("lock '" + lockName + "': this thread's lease was lost at "
                        + hold.lostAt + " (" + hold.lossReason + "), so another client may hold it now");
            }
            hold.releasing = true;
            return hold.depth;
        }

        /** The calling thread's hold is gone from Redis, as a call of its own found: it is lost, and told so. */
        public void lose(String reason) {
            Hold hold = byThread.get(Thread.currentThread().getId());
            if (hold != null) {
                hold.lose(reason);
            }
        }

        /** After the unlock script: {@code lastHold} ends the hold (no more renewals), otherwise it goes on. */
        public void released(boolean lastHold) {
            long thread = Thread.currentThread().getId();
            Hold hold = lastHold ? byThread.remove(thread) : byThread.get(thread);
            if (hold != null) {
                hold.releasing = false;
                hold.depth--;
                if (lastHold) {
                    hold.stop();
                }
            }
        }

        /** One watched hold of this lock by one thread. */
        private final class Hold {

            private final Thread owner;
            /** Touched by the owner thread only. */
            private int depth;
            private volatile long deadline;
            private volatile long renewLeaseNanos;
            private volatile boolean ended;
            private volatile boolean releasing;
            private volatile Instant lostAt;
            private volatile String lossReason;
            private volatile ScheduledFuture<?> renewal;
            private volatile ScheduledFuture<?> check;
            /** Renewals fail since the last one that went through: logged at WARN once, not per attempt. */
            private volatile boolean renewalsFailing;

            private Hold(Thread owner) {
                this.owner = owner;
            }

            boolean isHeld() {
                return !ended && System.nanoTime() < deadline;
            }

            /** The lock script set {@code lease} in Redis from a request sent at {@code sentNanos}. */
            void acquired(long sentNanos, Lease lease, BooleanSupplier renew) {
                depth++;
                // A re-entry never shortens the lease (the scripts keep the longer one), so nor does it the deadline.
                deadline = Math.max(deadline, Watchdog.deadline(sentNanos, lease));
                if (!lease.explicit() && renewal == null) {
                    renewLeaseNanos = TimeUnit.MILLISECONDS.toNanos(lease.millis());
                    long every = Math.max(1, lease.millis() / 3);
                    renewal = renewer.scheduleWithFixedDelay(() -> renew(renew), every, every, TimeUnit.MILLISECONDS);
                }
                if (check == null) {
                    checkAt(deadline);
                }
            }

            void stop() {
                if (end(null)) {
                    cancelTasks();
                }
            }

            private void renew(BooleanSupplier renew) {
                if (!owner.isAlive()) {
                    // Nobody is left to unlock it: renewing would hold the lock until the client closes.
                    lose("its thread ended without unlocking");
                    byThread.remove(owner.getId(), this);
                    return;
                }
                long sent = System.nanoTime();
                try {
                    if (renew.getAsBoolean()) {
                        deadline = Math.max(deadline, sent + renewLeaseNanos - margin(renewLeaseNanos));
                        if (renewalsFailing) {
                            renewalsFailing = false;
                            log.info("lock '{}': renewals for thread {} go through again", lockName, owner.getName());
                        }
                    } else if (!releasing) {
                        lose("Redis no longer had this owner's field at renewal");
                    }
                } catch (RuntimeException e) {
                    // Unreachable Redis: keep trying; the clock decides when the lease is gone.
                    observer.renewalFailed(lockName, e);
                    long leftMillis = (deadline - System.nanoTime()) / 1_000_000;
                    if (!renewalsFailing) {
                        renewalsFailing = true;
                        log.warn("lock '{}': renewal for thread {} failed ({}); retrying while {} ms of lease are left",
                                lockName, owner.getName(), e.getMessage(), leftMillis);
                    } else {
                        log.debug("lock '{}': renewal failed again, {} ms of lease left", lockName, leftMillis, e);
                    }
                }
            }

            private void checkAt(long when) {
                check = clock.schedule(() -> {
                    if (ended) {
                        return;
                    }
                    if (System.nanoTime() >= deadline) {
                        lose(expiryReason());
                    } else {
                        checkAt(deadline);
                    }
                }, Math.max(0, when - System.nanoTime()), TimeUnit.NANOSECONDS);
            }

            void loseIfPastDeadline() {
                if (!ended && System.nanoTime() >= deadline) {
                    lose(expiryReason());
                }
            }

            private String expiryReason() {
                return renewal == null ? "its explicit lease ran out" : "no renewal reached Redis within the lease";
            }

            private void lose(String reason) {
                if (!end(reason)) {
                    return;
                }
                cancelTasks();
                if (undo != null) {
                    String ownerName = ownerOf.apply(owner.getId());
                    giveBackLater(lockName, ownerName, () -> undo.accept(ownerName));
                }
                log.warn("lock '{}': thread {} lost its hold: {}", lockName, owner.getName(), reason);
                LeaseLoss loss = new LeaseLoss(lockName, owner.getId(), lostAt, reason);
                try {
                    notifier.execute(() -> onLost.accept(loss));
                } catch (RejectedExecutionException closedMeanwhile) {
                    // The client closed: nobody is listening any more.
                }
            }

            /**
             * Ends the hold once, lost for {@code reason} unless it is null: true for the caller that
             * ended it. A caller that comes second sees the first one's loss.
             */
            private synchronized boolean end(String reason) {
                if (ended) {
                    return false;
                }
                if (reason != null) {
                    lossReason = reason;
                    lostAt = Instant.now();
                }
                ended = true;
                return true;
            }

            private void cancelTasks() {
                for (ScheduledFuture<?> task : new ScheduledFuture<?>[] {renewal, check}) {
                    if (task != null) {
                        task.cancel(false);
                    }
                }
            }
        }
    }

    /** Clock-rate drift and the clock thread's own scheduling delay: the holder must hear first. */
    private static long margin(long leaseNanos) {
        return leaseNanos / 20 + TimeUnit.MILLISECONDS.toNanos(2);
    }

    private void checkOpen() {
        if (closed) {
            throw closedError();
        }
    }

    private static IllegalStateException closedError() {
        return new IllegalStateException("the client is closed: nothing would renew or watch this hold");
    }

    private static ScheduledExecutorService daemon(String name) {
        ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, daemonFactory(name));
        executor.setRemoveOnCancelPolicy(true);
        return executor;
    }

    private static ThreadFactory daemonFactory(String name) {
        return runnable -> {
            Thread thread = Executors.defaultThreadFactory().newThread(runnable);
            thread.setName(name);
            thread.setDaemon(true);
            return thread;
        };
    }
}
