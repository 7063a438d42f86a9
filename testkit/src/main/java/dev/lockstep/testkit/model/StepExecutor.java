package dev.lockstep.testkit.model;

import dev.lockstep.testkit.fault.FaultyLink;
import dev.lockstep.testkit.history.History;
import dev.lockstep.testkit.history.History.Kind;
import dev.lockstep.testkit.model.Step.Side;
import dev.lockstep.testkit.scenario.ScenarioContext;
import java.util.List;
import java.util.Optional;

/**
 * Plays one step: an owner's call, handed to the call it makes, or a fault on a client (close,
 * crash, stall), on Redis (dropped connections), or time passing.
 */
final class StepExecutor {

    private final RunContext run;
    private final ScenarioContext context;
    private final BackgroundCalls background;
    private final LossNotice notice;
    /** The fenced resource, on a fenced stage only (the only one whose histories write to it). */
    private final FencedResource resource;

    /** Plays steps of {@code run} on {@code context}'s nodes; {@code resource} is null unless the stage is fenced. */
    StepExecutor(RunContext run, ScenarioContext context, BackgroundCalls background, LossNotice notice,
                 FencedResource resource) {
        this.run = run;
        this.context = context;
        this.background = background;
        this.notice = notice;
        this.resource = resource;
    }

    /** Plays {@code step}; the first rule it broke, if any. */
    Optional<Violation> execute(Step step) {
        String actor = RunLog.actor(step);
        boolean ownersCall = switch (step.kind()) {
            case CLOSE, CRASH, STALL, DROP_CONNECTIONS, WAIT -> false;
            default -> true;
        };
        if (ownersCall) {
            // The owner's thread runs one call at a time: a call left waiting ends first.
            boolean takesHandle = step.kind() == Step.Kind.TRY_ACQUIRE || step.kind() == Step.Kind.TRY_ACQUIRE_LEASE;
            int thread = takesHandle ? Step.acquiringThread(step.thread()) : step.thread();
            Optional<Violation> waited = background.resolve(step.client(), thread);
            if (waited.isPresent()) {
                return waited;
            }
        }
        long now = System.nanoTime();
        return switch (step.kind()) {
            case LOCK, LOCK_LEASE, TRY_LOCK, TRY_LOCK_WAIT, TRY_LOCK_UNIT, TRY_LOCK_LEASE, INTERRUPT ->
                    Acquire.acquire(run, step, actor);
            case CONTEND -> {
                background.start(step, actor);
                yield Optional.empty();
            }
            case UNLOCK -> Release.unlock(run, step, actor);
            case EXTEND, HOLD_EXTEND -> Extend.extend(run, step, actor);
            case TRY_ACQUIRE, TRY_ACQUIRE_LEASE -> HoldCalls.acquire(run, step, actor);
            case HOLD_RELEASE, HOLD_CLOSE -> HoldCalls.release(run, step, actor);
            case HOLD_DROP -> HoldDrop.drop(run, step, actor);
            case FORCE_UNLOCK -> Release.forceUnlock(run, notice, step, actor);
            case FENCED_WRITE -> resource.write(run, step, actor);
            case CLOSE, CRASH -> replaceClient(step);
            case STALL -> stall(step);
            case DROP_CONNECTIONS -> dropConnections(step, now);
            case WAIT -> {
                OwnerThreads.sleep(step.millis());
                yield Optional.empty();
            }
        };
    }

    /** The client closes or crashes, and a new client takes its slot: its holds are lost, its waiters must return. */
    private Optional<Violation> replaceClient(Step step) {
        ReferenceModel model = run.model();
        List<FaultyLink> links = run.clients().links(step.client());
        if (step.kind() == Step.Kind.CRASH) {
            links.forEach(FaultyLink::blackhole);
        }
        run.clients().close(step.client());
        // A renewal sent as the close began may land while it runs: the lease counts from the close's end.
        long closed = System.nanoTime();
        run.clients().holds().clientClosed(step.client());
        links.forEach(FaultyLink::heal);
        model.losses().clientLost(step.client(), closed, model.leaseNanos());
        Optional<Violation> waiter = background.endedWithClient(step.client());
        if (waiter.isPresent()) {
            return waiter;
        }
        run.clients().open(step.client());
        run.log().note(Step.clientName(step.client()), Kind.CRASH, step.toString());
        return Optional.empty();
    }

    /** The client's link goes dark: past the lease, its holders lose their holds and must be told. */
    private Optional<Violation> stall(Step step) {
        ReferenceModel model = run.model();
        List<FaultyLink> links = run.clients().links(step.client());
        links.forEach(FaultyLink::blackhole);
        run.log().note(Step.clientName(step.client()), Kind.FAULT, step.toString());
        long start = System.nanoTime();
        Optional<Violation> local = HandleValidity.answersLocally(run, step.client());
        OwnerThreads.sleep(Math.max(0, step.millis() - (System.nanoTime() - start) / 1_000_000));
        links.forEach(FaultyLink::heal);
        if (local.isPresent()) {
            return local;
        }
        if (step.millis() >= run.setup().lease().toMillis()) {
            // As after a forceUnlock, an acquisition still under way may be granted after the stall: no victim. Nor is
            // a hold whose explicit lease outlasts the stall: nothing needed to reach Redis to keep it. Nor a renewed
            // hold re-entered with a fixed lease, which may keep the key past the stall: how long the mix lasts is no
            // promise of the API (seed 4905302949592366891: a 1,258 ms re-entry outlasted a 900 ms stall).
            long healed = System.nanoTime();
            List<int[]> victims = model.holders(step.client()).stream().filter(v -> {
                OwnerModel owner = model.owner(v[0], v[1], Side.values()[v[2]]);
                return !owner.inFlight && !owner.mixedLease && owner.fixedLeaseEnd <= healed;
            }).toList();
            long toldBy = model.losses().toldBy(victims, healed);
            victims.forEach(v -> model.losses().lost(v[0], v[1], Side.values()[v[2]], System.nanoTime(), ModelSetup.SLACK.toNanos()));
            model.losses().shake(step.client(), System.nanoTime());
            return notice.awaitTold(victims, "stalled past its lease", toldBy);
        }
        model.losses().shake(step.client(), System.nanoTime());
        return Optional.empty();
    }

    /** Redis drops every client connection: every client's holds may be lost unannounced for a lease. */
    private Optional<Violation> dropConnections(Step step, long now) {
        context.nodes().forEach(node -> {
            node.killClients("normal");
            node.killClients("pubsub");
        });
        for (int c = 0; c < ModelSetup.CLIENTS; c++) {
            run.model().losses().shake(c, now);
        }
        run.log().note(History.REDIS, Kind.FAULT, step.toString());
        return Optional.empty();
    }
}
