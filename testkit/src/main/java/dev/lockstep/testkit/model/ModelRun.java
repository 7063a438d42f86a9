package dev.lockstep.testkit.model;

import dev.lockstep.testkit.fault.FaultyLink;
import dev.lockstep.testkit.fixture.RedisFixture;
import dev.lockstep.testkit.fixture.RedisNode;
import dev.lockstep.testkit.scenario.ScenarioContext;
import java.util.List;
import java.util.Optional;

/**
 * Plays one history of {@link Step steps} on fresh Redis nodes: three clients of the stage, two
 * owner threads each, every client behind its own {@link FaultyLink}s. After each step the
 * {@link ReferenceModel} takes the call's outcome, the owners' locks are asked what they believe,
 * Redis is read, and the model checks all of it. At the end every owner unlocks what it holds, and
 * a fresh client must get the lock within one lease.
 */
public final class ModelRun {

    /**
     * What a run found.
     *
     * @param steps     the history played
     * @param played    how many steps ran before a violation (all, when none)
     * @param violation the first broken rule, if any
     * @param timeline  the steps and their outcomes as text, then the timeline of clients and Redis
     */
    public record Result(List<Step> steps, int played, Optional<Violation> violation, String timeline) {
    }

    private final ModelSetup setup;
    private final ScenarioContext context;
    private final OwnerThreads threads = new OwnerThreads();
    private final ClientSlots clients;
    private final RunContext run;
    private final MachineStalls stalls = new MachineStalls();

    private ModelRun(ModelSetup setup, RedisFixture fixture) {
        this.setup = setup;
        this.context = new ScenarioContext(setup.stage(), fixture);
        this.clients = new ClientSlots(setup, context, threads);
        ReferenceModel model = new ReferenceModel(setup, clients::fields);
        this.run = new RunContext(setup, model, threads, clients, new RunLog(context.history()), stalls);
    }

    /** Plays {@code steps} of {@code setup}'s stage on fresh nodes of {@code fixture}. */
    public static Result play(ModelSetup setup, RedisFixture fixture, List<Step> steps) {
        ModelRun run = new ModelRun(setup, fixture);
        try {
            return run.play(steps);
        } finally {
            run.close();
        }
    }

    private Result play(List<Step> steps) {
        List<RedisNode> nodes = context.nodes();
        FencedResource resource = setup.fenced() ? FencedResource.start(context) : null;
        clients.start(nodes);
        BackgroundCalls background = new BackgroundCalls(run);
        StepExecutor executor = new StepExecutor(run, context, background, new LossNotice(run, background), resource);
        StepCheck check = new StepCheck(run, context, background);
        int played = 0;
        Optional<Violation> violation = Optional.empty();
        for (Step step : steps) {
            played++;
            violation = executor.execute(step).or(check::check);
            if (violation.isPresent()) {
                break;
            }
        }
        if (violation.isEmpty()) {
            violation = new RunEnd(run, context, background, executor, check).finish();
        }
        violation.ifPresent(v -> run.log().line("VIOLATION " + v));
        return new Result(steps, played, violation, run.log().timeline());
    }

    private void close() {
        for (int c = 0; c < ModelSetup.CLIENTS; c++) {
            clients.closeQuietly(c);
            threads.stop(c);
        }
        context.close();
        stalls.close();
    }
}
