package dev.lockstep.v4.internal;

import dev.lockstep.LockOptions;
import dev.lockstep.internal.Daemons;
import dev.lockstep.internal.Uninterruptibly;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import redis.clients.jedis.exceptions.JedisConnectionException;

/**
 * Give-backs: undoing in Redis what an owner may hold without knowing it, such as the grant of a
 * call interrupted while it waited for its reply. The owner's thread returns at once and the undo
 * is sent on a thread of the client's, started only when there is one to send. The same owner's
 * next call on the lock waits for it first ({@link #await}), so that an undo never lands after,
 * and takes back, a later grant.
 */
public final class GiveBacks implements AutoCloseable {

    private static final int ATTEMPTS = 3;

    private final ThreadPoolExecutor thread;
    private final Map<String, Pending> pending = new ConcurrentHashMap<>();

    /** Give-backs sent on a thread carrying {@code clientName} in its name. */
    public GiveBacks(String clientName) {
        this.thread = Daemons.onDemand("lockstep-give-back-" + clientName);
    }

    /** Sends {@code giveBack} for {@code owner}'s hold of {@code lockName} soon, on the give-back thread. */
    public void later(String lockName, String owner, Runnable giveBack) {
        Pending task = new Pending(key(lockName, owner), giveBack);
        pending.put(task.key, task);
        try {
            thread.execute(task);
        } catch (RejectedExecutionException closedMeanwhile) {
            // The client closed: the grant's lease ends it.
            pending.remove(task.key, task);
        }
    }

    /** Before {@code owner} asks for {@code lockName}: sends its pending give-back on this thread, or waits until it is sent. */
    public void await(String lockName, String owner) {
        Pending task = pending.get(key(lockName, owner));
        if (task == null) {
            return;
        }
        task.run();
        Uninterruptibly.run(() -> {
            try {
                task.get();
            } catch (ExecutionException failed) {
                // Sent and failed: the hold's lease ends it.
            }
        });
    }

    /**
     * Sends {@code unlock}, a give-back, quietly. A pool may still hand out connections a broken
     * link closed, and each fails at once, so a few attempts reach a fresh one; if none answers, or
     * Redis refuses, the hold's lease ends it.
     */
    public static void send(Runnable unlock) {
        for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
            try {
                unlock.run();
                return;
            } catch (JedisConnectionException unreachable) {
                // Next attempt, on another connection.
            } catch (RuntimeException refused) {
                return;
            }
        }
    }

    /**
     * The undo of a lost hold whose field other holds keep alive in Redis (the owner's other side of a
     * read-write lock, other readers, the owner's other locks over a name), so it would outlive its own
     * lease: {@code unlock} of the owner's field, tried again every spin interval while it fails (a dead
     * pooled connection, Redis out of reach) and {@code closed} says no. After a watchdog timeout of
     * failures every other lease has ended as well, and the field with it.
     */
    public static Consumer<String> retrying(Consumer<String> unlock, LockOptions options, BooleanSupplier closed) {
        return owner -> {
            long giveUpAt = System.nanoTime() + options.watchdogTimeout().toNanos();
            while (true) {
                try {
                    unlock.accept(owner);
                    return;
                } catch (RuntimeException unreachable) {
                    if (closed.getAsBoolean() || System.nanoTime() - giveUpAt > 0) {
                        return;
                    }
                }
                try {
                    TimeUnit.NANOSECONDS.sleep(options.spinInterval().toNanos());
                } catch (InterruptedException closing) {
                    // The client closes: its give-back thread stops, and the field's lease ends it.
                    return;
                }
            }
        };
    }

    /** Drops the give-backs not sent yet: their grants' leases end them. */
    @Override
    public void close() {
        thread.shutdownNow();
    }

    private static String key(String lockName, String owner) {
        return lockName + '\n' + owner;
    }

    /** A give-back not sent yet, which leaves the table when done. */
    private final class Pending extends FutureTask<Void> {

        private final String key;

        Pending(String key, Runnable giveBack) {
            super(giveBack, null);
            this.key = key;
        }

        @Override
        protected void done() {
            pending.remove(key, this);
        }
    }
}
