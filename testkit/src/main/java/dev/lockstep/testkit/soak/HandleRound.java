package dev.lockstep.testkit.soak;

import dev.lockstep.DistLock;
import dev.lockstep.LockException;
import dev.lockstep.LockHold;
import dev.lockstep.testkit.model.HoldOwners;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/**
 * A soak round through a hold handle, as async code uses one: a worker takes the lock with
 * {@code tryAcquire}, hands the {@link LockHold} to another thread, which works while
 * {@code isValid()} says the hold counts, sometimes extends it, and releases it. The handle is an
 * actor of its own ({@code client/-N}, as its loss signals name it), so the verdict judges its
 * sections beside the threads'.
 */
final class HandleRound {

    /** Per handle round, the chance the hold is extended (by the watchdog's lease, as a fixed lease) while it works. */
    private static final double EXTEND = 0.3;
    private static final long SLICE_MILLIS = 5;

    private HandleRound() {
    }

    /**
     * Takes {@code lock} (over {@code names}) as a handle within {@code wait}, works it for
     * {@code workMillis} on {@code elsewhere} and releases it there; this worker waits for that.
     */
    static void play(String client, List<String> names, DistLock lock, Duration wait, Duration lease, long workMillis,
                     Random random, ExecutorService elsewhere) {
        String me = client + "/" + Thread.currentThread().getId();
        long since = System.nanoTime();
        Optional<LockHold> taken;
        try {
            taken = lock.tryAcquire(wait, null);
        } catch (LockException | IllegalStateException e) {
            print(me, SoakEvent.Kind.ERROR, names, since, e.getMessage());
            return;
        } catch (InterruptedException e) {
            print(me, SoakEvent.Kind.INTERRUPTED, names, since, "interrupted while waiting");
            return;
        }
        if (taken.isEmpty()) {
            print(me, SoakEvent.Kind.DENIED, names, since, "");
            return;
        }
        LockHold hold = taken.get();
        String actor = client + "/" + HoldOwners.ownerNumber(hold);
        print(actor, SoakEvent.Kind.ACQUIRED, names, since, "a handle, by " + me);
        boolean extend = random.nextDouble() < EXTEND;
        awaitUninterruptibly(elsewhere.submit(() -> workAndRelease(actor, names, hold, workMillis, extend ? lease : null)));
    }

    /** On the other thread: works while the hold is valid, extends it halfway when asked, and releases it. */
    private static void workAndRelease(String actor, List<String> names, LockHold hold, long workMillis, Duration extend) {
        print(actor, SoakEvent.Kind.ENTER, names, System.nanoTime(), "on " + Thread.currentThread().getName());
        boolean told = false;
        for (long done = 0; done < workMillis && !told; done += SLICE_MILLIS) {
            pause(SLICE_MILLIS);
            if (extend != null && done >= workMillis / 2) {
                extend(actor, names, hold, extend);
                extend = null;
            }
            told = !hold.isValid();
        }
        print(actor, SoakEvent.Kind.EXIT, names, System.nanoTime(), told ? "stops: told the lease is lost" : "");
        long since = System.nanoTime();
        try {
            hold.release();
            print(actor, SoakEvent.Kind.UNLOCKED, names, since, "");
        } catch (IllegalMonitorStateException | LockException e) {
            print(actor, SoakEvent.Kind.UNLOCK_FAILED, names, since, e.getMessage());
        }
    }

    private static void extend(String actor, List<String> names, LockHold hold, Duration lease) {
        long since = System.nanoTime();
        try {
            hold.extend(lease);
        } catch (IllegalMonitorStateException | LockException | UnsupportedOperationException e) {
            // Lost, unknown (the hold trusts the shorter lease, and isValid() says which), or a stage that cannot extend.
            print(actor, SoakEvent.Kind.ERROR, names, since, "extend: " + e.getMessage());
        }
    }

    /** Waits for the other thread's part of the round; an interrupt from a sibling is kept for the next wait. */
    private static void awaitUninterruptibly(Future<?> round) {
        boolean interrupted = false;
        while (true) {
            try {
                round.get();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            } catch (ExecutionException e) {
                throw new IllegalStateException("a handle round failed", e.getCause());
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private static void print(String actor, SoakEvent.Kind kind, List<String> names, long since, String detail) {
        for (String name : names) {
            SoakEvent.print(actor, kind, name, since, detail);
        }
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
