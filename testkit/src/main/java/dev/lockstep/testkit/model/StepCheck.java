package dev.lockstep.testkit.model;

import dev.lockstep.DistLock;
import dev.lockstep.testkit.model.Step.Side;
import dev.lockstep.testkit.scenario.ScenarioContext;
import java.util.Optional;

/**
 * The check after every step: judges the background calls that returned, lets fixed leases run
 * out and loss signals arrive in the model, asks every owner what it believes (a thread its lock, a
 * handle its {@code isValid()}), asks the lock's Redis queries, reads Redis, and holds all of it to
 * the {@link ModelRules}, the {@link LockQueries} and the handles' loss listeners.
 */
final class StepCheck {

    private final RunContext run;
    private final ScenarioContext context;
    private final BackgroundCalls background;
    private final ModelRules rules;

    /** The check of {@code run} on {@code context}'s nodes, whose owners may be inside {@code background} calls. */
    StepCheck(RunContext run, ScenarioContext context, BackgroundCalls background) {
        this.run = run;
        this.context = context;
        this.background = background;
        this.rules = new ModelRules(run.setup(), run.model());
    }

    /** The first rule broken now, if any. */
    Optional<Violation> check() {
        for (int c = 0; c < ModelSetup.CLIENTS; c++) {
            for (int t = 0; t < ModelSetup.OWNERS; t++) {
                Optional<Violation> waited = background.returned(c, t) ? background.resolve(c, t) : Optional.empty();
                if (waited.isPresent()) {
                    return waited;
                }
            }
        }
        run.noteStalls();
        ReferenceModel model = run.model();
        long now = System.nanoTime();
        model.losses().advance(now);
        run.clients().drainTold(model);
        int[][][] beliefs = new int[ModelSetup.CLIENTS][ModelSetup.OWNERS][ModelSetup.SIDES];
        boolean[][][] held = new boolean[ModelSetup.CLIENTS][ModelSetup.OWNERS][ModelSetup.SIDES];
        for (int c = 0; c < ModelSetup.CLIENTS; c++) {
            for (int t = 0; t < ModelSetup.OWNERS; t++) {
                for (Side side : model.sides()) {
                    if (background.waiting(c, t)) {
                        // Its thread is inside a lock call: what it believes is known when the call ends.
                        beliefs[c][t][side.ordinal()] = -1;
                        continue;
                    }
                    if (Step.isHandle(t)) {
                        beliefs[c][t][side.ordinal()] = run.holdCount(c, t, side);
                        held[c][t][side.ordinal()] = beliefs[c][t][side.ordinal()] > 0;
                        continue;
                    }
                    DistLock lock = run.lock(c, side);
                    Object count = run.call(c, t, lock::holdCount);
                    Object isHeld = run.call(c, t, lock::isHeldByCurrentThread);
                    beliefs[c][t][side.ordinal()] = count instanceof Integer n ? n : -1;
                    held[c][t][side.ordinal()] = Boolean.TRUE.equals(isHeld);
                }
            }
        }
        LockQueries queries = LockQueries.ask(run, !background.anyWaiting());
        RedisView redis = RedisView.read(context.nodes(), run.setup());
        return rules.check(System.nanoTime(), beliefs, held, redis).stream().findFirst()
                .or(() -> queries.judge(run, redis)).or(this::handlesTold);
    }

    /** A handle whose loss its lock announced must have told its own {@code onLost} listeners too, within the slack. */
    private Optional<Violation> handlesTold() {
        long now = System.nanoTime();
        for (int c = 0; c < ModelSetup.CLIENTS; c++) {
            for (int t = ModelSetup.THREADS; t < ModelSetup.OWNERS; t++) {
                HoldSlots.Held held = run.held(c, t);
                if (held != null && held.lockToldAt > 0 && held.toldAt == 0
                        && now - held.lockToldAt > ModelSetup.SLACK.toNanos()) {
                    return Optional.of(new Violation("hold-not-told", Step.ownerName(c, t) + "'s lock announced its loss "
                            + (now - held.lockToldAt) / 1_000_000 + " ms ago, but the handle's onLost listener never heard"));
                }
            }
        }
        return Optional.empty();
    }
}
