package dev.lockstep.testkit.model;

import dev.lockstep.CompositeLocks;
import dev.lockstep.DistLock;
import dev.lockstep.Guarantee;
import dev.lockstep.LockOptions;
import dev.lockstep.Locks;
import dev.lockstep.testkit.fixture.RedisNode;
import dev.lockstep.testkit.history.History.Kind;
import dev.lockstep.testkit.model.Step.Side;
import dev.lockstep.testkit.model.Step.WireFault;
import dev.lockstep.testkit.scenario.ScenarioContext;
import dev.lockstep.testkit.stage.Stage;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import redis.clients.jedis.RedisClient;

/**
 * The end of a run: every thread unlocks what its lock says it holds, every handle is closed, every
 * hold must then leave Redis, and a fresh client must get the lock within one lease.
 */
final class RunEnd {

    /** The fair lock's default waiter timeout ({@code FairLocks.DEFAULT_WAITER_TIMEOUT}), which its stage opens with. */
    private static final Duration FAIR_WAITER_TIMEOUT = Duration.ofSeconds(5);

    private final RunContext run;
    private final ScenarioContext context;
    private final BackgroundCalls background;
    private final StepExecutor executor;
    private final StepCheck check;

    /** The end of {@code run} on {@code context}'s nodes: {@code executor} plays the unlocks, {@code check} checks. */
    RunEnd(RunContext run, ScenarioContext context, BackgroundCalls background, StepExecutor executor,
           StepCheck check) {
        this.run = run;
        this.context = context;
        this.background = background;
        this.executor = executor;
        this.check = check;
    }

    /**
     * Every thread unlocks what its lock says it holds and every handle is closed; then every hold
     * must leave Redis, and a fresh client get in.
     */
    Optional<Violation> finish() {
        run.log().line("-- end: every owner unlocks what it holds, then the lock must be free within one lease");
        for (int c = 0; c < ModelSetup.CLIENTS; c++) {
            for (int t = 0; t < ModelSetup.THREADS; t++) {
                Optional<Violation> waited = background.resolve(c, t);
                if (waited.isPresent()) {
                    return waited;
                }
                for (Side side : run.model().sides()) {
                    for (int round = 0; round < 8; round++) {
                        Object count = run.call(c, t, run.lock(c, side)::holdCount);
                        if (!(count instanceof Integer n) || n == 0) {
                            break;
                        }
                        Step unlock = new Step(Step.Kind.UNLOCK, c, t, side, 0, WireFault.NONE);
                        Optional<Violation> broken = executor.execute(unlock).or(check::check);
                        if (broken.isPresent()) {
                            return broken;
                        }
                    }
                }
            }
        }
        for (int c = 0; c < ModelSetup.CLIENTS; c++) {
            for (int h = ModelSetup.THREADS; h < ModelSetup.OWNERS; h++) {
                HoldSlots.Held held = run.held(c, h);
                if (held != null && held.clientClosed) {
                    run.clients().holds().clear(c, h);
                } else if (held != null) {
                    Step close = new Step(Step.Kind.HOLD_CLOSE, c, h, held.side, 0, WireFault.NONE);
                    Optional<Violation> broken = executor.execute(close).or(check::check);
                    if (broken.isPresent()) {
                        return broken;
                    }
                }
            }
        }
        long deadline = System.nanoTime() + run.model().leaseNanos() * 2;
        Optional<Violation> last = check.check();
        while (System.nanoTime() < deadline
                && (last.isPresent() || !RedisView.read(context.nodes(), run.setup()).anyFields().isEmpty())) {
            if (last.isPresent() && !last.get().rule().equals("stuck-hold")) {
                return last;
            }
            OwnerThreads.sleep(50);
            last = check.check();
        }
        if (last.isPresent()) {
            return last;
        }
        return probe(context.nodes());
    }

    /**
     * A fresh client must take the lock within one lease, once every owner unlocked or died. A fair
     * lock's queue keeps a waiter that could not leave it (its request to leave went unanswered) until
     * the waiter's timeout passes, as it keeps a dead waiter: its lesson's bound, one waiter timeout more.
     */
    private Optional<Violation> probe(List<RedisNode> nodes) {
        ModelSetup setup = run.setup();
        List<RedisClient> clients = nodes.stream().map(RedisNode::newClient).toList();
        LockOptions options = Stage.leaseOptions(setup.lease());
        Duration bound = Duration.ofNanos(run.model().leaseNanos())
                .plus(setup.claims().contains(Guarantee.FAIR_ORDER) ? FAIR_WAITER_TIMEOUT : Duration.ZERO);
        try (Locks locks = setup.stage().open(clients, options)) {
            DistLock lock = setup.severalNames() ? ((CompositeLocks) locks).getAll(ModelSetup.LOCK, ModelSetup.OTHER)
                    : locks.get(ModelSetup.LOCK);
            long start = System.nanoTime();
            boolean taken = lock.tryLock(bound, null);
            run.log().note("probe", Kind.NOTE, "a fresh client " + (taken ? "took" : "could not take") + " the lock after "
                    + (System.nanoTime() - start) / 1_000_000 + " ms");
            if (taken) {
                lock.unlock();
                return setup.severalNames() ? joinedNameIsItsOwnLock(locks, nodes) : Optional.empty();
            }
            return Optional.of(new Violation("not-free", "every owner unlocked or died, yet a fresh client could not "
                    + "take the lock within " + bound.toMillis() + " ms: " + RedisView.read(nodes, setup)));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        } finally {
            clients.forEach(RedisClient::close);
        }
    }

    /** {@code get("a+b")} is the lock of the name {@code a+b}, never the group over a and b: taking it leaves a free. */
    private Optional<Violation> joinedNameIsItsOwnLock(Locks locks, List<RedisNode> nodes) {
        DistLock joined = locks.get(ModelSetup.LOCK + "+" + ModelSetup.OTHER);
        if (!joined.tryLock()) {
            return Optional.of(new Violation("joined-name", "get(\"" + joined.name() + "\") could not be taken on a free lock"));
        }
        boolean modelledTaken = RedisView.read(nodes, run.setup()).lockKeyHeld();
        joined.unlock();
        return modelledTaken ? Optional.of(new Violation("joined-name", "get(\"" + joined.name() + "\") took the group: the "
                + "name " + ModelSetup.LOCK + " was held with it")) : Optional.empty();
    }
}
