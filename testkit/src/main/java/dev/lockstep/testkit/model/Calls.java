package dev.lockstep.testkit.model;

import dev.lockstep.DistLock;
import dev.lockstep.FencedLock;
import dev.lockstep.Guarantee;
import dev.lockstep.LockOptions;
import dev.lockstep.Locks;
import dev.lockstep.testkit.fault.FaultyLink;
import dev.lockstep.testkit.fixture.RedisNode;
import dev.lockstep.testkit.history.History.Kind;
import dev.lockstep.testkit.model.ModelRun.Hung;
import dev.lockstep.testkit.model.Step.Side;
import dev.lockstep.testkit.model.Step.WireFault;
import dev.lockstep.testkit.resource.StaleTokenException;
import dev.lockstep.testkit.stage.Stage;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.Future;
import redis.clients.jedis.RedisClient;

/**
 * The owners' calls of a {@link ModelRun}: each runs on its owner's thread, under its wire fault,
 * and hands its outcome (granted, refused, or thrown with the outcome unknown) to the
 * {@link ReferenceModel}, with what the call itself must have done.
 */
final class Calls {

    /** The fair lock's default waiter timeout ({@code FairLocks.DEFAULT_WAITER_TIMEOUT}), which its stage opens with. */
    private static final Duration FAIR_WAITER_TIMEOUT = Duration.ofSeconds(5);


    private static final Duration DEADLINE = Duration.ofSeconds(10);

    private Calls() {
    }

    static Optional<Violation> acquire(ModelRun run, Step step, String actor) {
        int c = step.client();
        int t = step.thread();
        ReferenceModel model = run.model();
        boolean blockedByOther = model.otherHolder(c, t, step.side()).isPresent();
        Callable<Object> body = body(run, step, blockedByOther);
        Attempt attempt = new Attempt(step, System.nanoTime(), reentry(model.owner(c, t, step.side())), blockedByOther);
        Object outcome = step.kind() == Step.Kind.INTERRUPT ? interrupted(run, c, t, step.millis(), body)
                : underFault(run, step, body);
        return outcome(run, attempt, actor, outcome);
    }

    /** A lock call under way on its owner's thread while other steps run: a waiter beside them. */
    record Attempt(Step step, long start, boolean reentry, boolean blockedByOther) {
    }

    /** Starts {@code step}'s {@code tryLock(wait)} on its owner's thread without waiting for it. */
    static Future<?> contend(ModelRun run, Step step) {
        return run.submit(step.client(), step.thread(), body(run, step, false));
    }

    static Attempt attempt(ModelRun run, Step step) {
        return new Attempt(step, System.nanoTime(), reentry(run.model().owner(step.client(), step.thread(),
                step.side())), false);
    }

    private static boolean reentry(OwnerModel owner) {
        return owner.surelyHolds() && owner.shakenUntil <= System.nanoTime() && !owner.beliefUnknown;
    }

    private static Callable<Object> body(ModelRun run, Step step, boolean blockedByOther) {
        DistLock lock = run.lockOf(step.client(), step.side());
        return switch (step.kind()) {
            // lock() would wait for a holder that never unlocks (the steps run one at a time): bounded instead.
            case LOCK -> blockedByOther ? () -> lock.tryLock(Duration.ofMillis(step.millis()), null) : () -> {
                lock.lock();
                return true;
            };
            case TRY_LOCK -> lock::tryLock;
            case TRY_LOCK_WAIT, CONTEND -> () -> lock.tryLock(Duration.ofMillis(step.millis()), null);
            case TRY_LOCK_LEASE -> () -> lock.tryLock(Duration.ZERO, Duration.ofMillis(step.millis()));
            default -> () -> {
                lock.lockInterruptibly();
                return true;
            };
        };
    }

    /** Hands the outcome of {@code attempt} to the model, with what the call itself must have done. */
    static Optional<Violation> outcome(ModelRun run, Attempt attempt, String actor, Object outcome) {
        Step step = attempt.step();
        int c = step.client();
        int t = step.thread();
        ReferenceModel model = run.model();
        OwnerModel owner = model.owner(c, t, step.side());
        owner.inFlight = false;
        owner.refusedUnderFault = Boolean.FALSE.equals(outcome) && step.fault() != WireFault.NONE ? step : null;
        Duration lease = step.kind() == Step.Kind.TRY_LOCK_LEASE ? Duration.ofMillis(step.millis()) : null;
        if (outcome instanceof Hung hung) {
            return Optional.of(new Violation("hung", step + " did not return within " + hung.deadline().toMillis()
                    + " ms" + (attempt.reentry() ? " although the thread holds the lock" : "")));
        }
        String what = step + (step.kind() == Step.Kind.LOCK && attempt.blockedByOther()
                ? " (another holds it: waits " + step.millis() + " ms)" : "");
        if (Boolean.TRUE.equals(outcome) && owner.lostAt > attempt.start()) {
            // Granted while waiting in the background, then lost to a forceUnlock, a stall or a close that came after.
            owner.granted(attempt.start());
            model.lost(c, t, step.side(), owner.lostAt, model.leaseNanos());
            owner.beliefUnknown = true;
            run.note(actor, Kind.NOTE, step + " -> granted, and lost since");
            return Optional.empty();
        }
        if (Boolean.TRUE.equals(outcome)) {
            owner.mixedLease |= owner.fixedLeaseEnd > 0 && lease == null;
            owner.granted(attempt.start());
            if (lease != null && owner.settled() == 1) {
                owner.fixedLeaseEnd = attempt.start() + lease.toNanos();
            }
            int count = holdCount(run, c, t, step.side());
            run.history().acquired(actor, attempt.start() - System.nanoTime() + run.history().now(), lease, count,
                    what);
            run.note(actor, Kind.NOTE, what + " -> granted, holdCount " + count);
            return model.settle(c, t, step.side(), count, false, System.nanoTime());
        }
        if (Boolean.FALSE.equals(outcome) || outcome instanceof InterruptedException
                || outcome instanceof IllegalMonitorStateException) {
            run.note(actor, Kind.DENIED, what + " -> " + describe(outcome));
            boolean blipEnded = step.fault() == WireFault.BLIP && step.millis() >= ModelSetup.BLIP.toMillis() + 500;
            // A hold lost during the call (its loss signalled meanwhile) is no re-entry any more.
            if (Boolean.FALSE.equals(outcome) && attempt.reentry() && owner.surelyHolds()
                    && run.setup().claims().contains(Guarantee.REENTRANT)
                    && (step.fault() == WireFault.NONE || blipEnded)) {
                return Optional.of(new Violation("re-entry-refused", step + " returned false although the thread holds "
                        + owner + " and Redis " + (blipEnded ? "answered again " + (step.millis()
                        - ModelSetup.BLIP.toMillis()) + " ms before the wait ended" : "answered")));
            }
            Optional<Violation> settled = model.settle(c, t, step.side(), holdCount(run, c, t, step.side()), false,
                    System.nanoTime());
            if (owner.refusedUnderFault != null) {
                // "Refused" is the lock's guess when its replies were lost: Redis may have granted it all the same.
                model.unheardGrant(c, t, step.side(), System.nanoTime());
            }
            return settled;
        }
        run.note(actor, Kind.NOTE, what + " -> threw, outcome unknown: " + describe(outcome));
        owner.maybeGranted();
        return Optional.empty();
    }

    static Optional<Violation> unlock(ModelRun run, Step step, String actor) {
        int c = step.client();
        int t = step.thread();
        ReferenceModel model = run.model();
        OwnerModel owner = model.owner(c, t, step.side());
        DistLock lock = run.lockOf(c, step.side());
        long start = run.history().now();
        Object outcome = underFault(run, step, () -> {
            lock.unlock();
            return true;
        });
        long now = System.nanoTime();
        if (outcome instanceof Hung hung) {
            return Optional.of(new Violation("hung", step + " did not return within " + hung.deadline().toMillis() + " ms"));
        }
        if (Boolean.TRUE.equals(outcome)) {
            if (!owner.mayHold() && !owner.beliefUnknown) {
                return Optional.of(new Violation("unlock-accepted", step + " was accepted, but the model says the thread "
                        + "holds nothing"));
            }
            owner.released();
            int count = holdCount(run, c, t, step.side());
            run.history().unlocked(start, actor, count, step.toString());
            run.note(actor, Kind.NOTE, step + " -> unlocked, holdCount " + count);
            return model.settle(c, t, step.side(), count, true, now);
        }
        if (outcome instanceof IllegalMonitorStateException refused) {
            run.note(actor, Kind.UNLOCK_REFUSED, step + " -> refused: " + refused.getMessage());
            boolean faulted = owner.shakenUntil > now || owner.exposedUntil > now;
            if (owner.surelyHolds() && !faulted && !owner.beliefUnknown && owner.fixedLeaseEnd == 0) {
                return Optional.of(new Violation("unlock-refused", step + " was refused, but the model says the thread "
                        + "holds " + owner + ": " + refused.getMessage()));
            }
            model.lost(c, t, step.side(), now, model.leaseNanos());
            return model.settle(c, t, step.side(), holdCount(run, c, t, step.side()), false, now);
        }
        run.note(actor, Kind.NOTE, step + " -> threw, outcome unknown: " + describe(outcome));
        owner.maybeReleased();
        return Optional.empty();
    }

    static Optional<Violation> forceUnlock(ModelRun run, Step step, String actor) {
        ReferenceModel model = run.model();
        DistLock lock = run.lockOf(step.client(), step.side());
        // An acquisition still under way is no victim: its grant may come after the force (the force freed the lock).
        List<int[]> holders = run.holders(-1).stream()
                .filter(v -> !model.owner(v[0], v[1], Side.values()[v[2]]).inFlight).toList();
        List<int[]> underWay = run.holders(-1).stream()
                .filter(v -> model.owner(v[0], v[1], Side.values()[v[2]]).inFlight).toList();
        Object outcome = run.call(step.client(), step.thread(), lock::forceUnlock, DEADLINE);
        long now = System.nanoTime();
        run.note(actor, Kind.NOTE, step + " -> " + describe(outcome));
        if (!(outcome instanceof Boolean)) {
            for (int c = 0; c < ModelSetup.CLIENTS; c++) {
                model.shake(c, now);
            }
            return Optional.empty();
        }
        // Nothing deleted: no lock, or (a read-write lock) one held in the other side's mode. A read side that
        // deleted found the lock in read mode: its readers lose their holds (Redisson's rule), and no writer held it.
        List<int[]> victims = Boolean.FALSE.equals(outcome) ? List.of()
                : step.side() == Side.READ && run.setup().readWrite()
                ? holders.stream().filter(v -> v[2] == Side.READ.ordinal()).toList() : holders;
        victims.forEach(v -> model.lost(v[0], v[1], Side.values()[v[2]], now, ModelSetup.SLACK.toNanos()));
        // Granted just before the force, such a hold is gone unannounced until its next renewal looks.
        underWay.forEach(v -> model.owner(v[0], v[1], Side.values()[v[2]]).shakenUntil = now + model.leaseNanos());
        return run.awaitTold(victims, "lost its hold to " + step);
    }

    static Optional<Violation> fencedWrite(ModelRun run, Step step, String actor) {
        OwnerModel owner = run.model().owner(step.client(), step.thread(), Side.WRITE);
        FencedLock lock = (FencedLock) run.lockOf(step.client(), Side.WRITE);
        boolean live = owner.surelyHolds() && owner.shakenUntil <= System.nanoTime() && !owner.beliefUnknown
                && owner.fixedLeaseEnd == 0;
        Object token = run.call(step.client(), step.thread(), lock::token, DEADLINE);
        if (!(token instanceof Long fenceToken)) {
            run.note(actor, Kind.NOTE, step + " -> no token: " + describe(token));
            return live ? Optional.of(new Violation("fence", step + ": token() refused a thread the model says holds "
                    + owner + ": " + describe(token))) : Optional.empty();
        }
        try {
            run.stock().write(run.item(), fenceToken, fenceToken);
            run.note(actor, Kind.NOTE, step + " -> token " + fenceToken + " written");
            if (fenceToken < run.fence()) {
                return Optional.of(new Violation("fence", "token " + fenceToken + " was written after token " + run.fence()));
            }
            run.fence(fenceToken);
            return Optional.empty();
        } catch (StaleTokenException e) {
            run.note(actor, Kind.NOTE, step + " -> token " + fenceToken + " refused: " + e.getMessage());
            return live ? Optional.of(new Violation("fence", step + ": a live holder's token " + fenceToken
                    + " is older than one the resource saw (" + run.fence() + ")")) : Optional.empty();
        }
    }

    /**
     * A fresh client must take the lock within one lease, once every owner unlocked or died. A fair
     * lock's queue keeps a waiter that could not leave it (its request to leave went unanswered) until
     * the waiter's timeout passes, as it keeps a dead waiter: its lesson's bound, one waiter timeout more.
     */
    static Optional<Violation> probe(ModelRun run, List<RedisNode> nodes, ModelSetup setup, String name) {
        List<RedisClient> clients = nodes.stream().map(RedisNode::newClient).toList();
        LockOptions options = Stage.leaseOptions(setup.lease());
        Duration bound = Duration.ofNanos(run.model().leaseNanos())
                .plus(setup.claims().contains(Guarantee.FAIR_ORDER) ? FAIR_WAITER_TIMEOUT : Duration.ZERO);
        try (Locks locks = setup.stage().open(clients, options)) {
            DistLock lock = locks.get(name);
            long start = System.nanoTime();
            boolean taken = lock.tryLock(bound, null);
            run.note("probe", Kind.NOTE, "a fresh client " + (taken ? "took" : "could not take") + " the lock after "
                    + (System.nanoTime() - start) / 1_000_000 + " ms");
            if (taken) {
                lock.unlock();
                return Optional.empty();
            }
            return Optional.of(new Violation("not-free", "every owner unlocked or died, yet a fresh client could not "
                    + "take the lock within " + bound.toMillis() + " ms: " + RedisView.read(nodes, name)));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        } finally {
            clients.forEach(RedisClient::close);
        }
    }

    /** Runs {@code body} on the step's owner thread under the step's wire fault. */
    private static Object underFault(ModelRun run, Step step, Callable<Object> body) {
        List<FaultyLink> links = run.links(step.client());
        switch (step.fault()) {
            case LOST_REPLY -> links.forEach(FaultyLink::loseReplies);
            case BLIP -> links.forEach(FaultyLink::blackhole);
            case NONE -> {
                return run.call(step.client(), step.thread(), body, DEADLINE);
            }
        }
        Future<?> call = run.submit(step.client(), step.thread(), body);
        if (step.fault() == WireFault.BLIP) {
            ModelRun.sleep(ModelSetup.BLIP.toMillis());
            links.forEach(FaultyLink::heal);
        }
        Object outcome = ModelRun.await(call, DEADLINE);
        links.forEach(FaultyLink::heal);
        long now = System.nanoTime();
        run.model().shake(step.client(), step.thread(), now);
        for (Side side : Side.values()) {
            run.model().owner(step.client(), step.thread(), side).exposedUntil = now + run.model().leaseNanos();
        }
        run.drainTold();
        return outcome;
    }

    /** {@code lockInterruptibly()} on the owner's thread, interrupted {@code afterMillis} later. */
    private static Object interrupted(ModelRun run, int c, int t, long afterMillis, Callable<Object> body) {
        Future<?> call = run.submit(c, t, body);
        ModelRun.sleep(afterMillis);
        run.ownerThread(c, t).interrupt();
        Object outcome = ModelRun.await(call, DEADLINE);
        // A grant that came before the interrupt leaves the flag set: clear it, or the owner's next call would see it.
        run.call(c, t, Thread::interrupted, DEADLINE);
        return outcome;
    }

    private static int holdCount(ModelRun run, int c, int t, Side side) {
        Object count = run.call(c, t, run.lockOf(c, side)::holdCount, DEADLINE);
        return count instanceof Integer n ? n : -1;
    }

    private static String describe(Object outcome) {
        if (outcome instanceof Throwable thrown) {
            return thrown.getClass().getSimpleName() + (thrown.getMessage() == null ? "" : ": " + thrown.getMessage());
        }
        return Boolean.FALSE.equals(outcome) ? "refused" : String.valueOf(outcome);
    }
}
