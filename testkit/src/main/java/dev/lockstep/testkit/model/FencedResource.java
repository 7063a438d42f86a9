package dev.lockstep.testkit.model;

import dev.lockstep.FencedLock;
import dev.lockstep.testkit.fixture.NodeConfig;
import dev.lockstep.testkit.history.History.Kind;
import dev.lockstep.testkit.model.Step.Side;
import dev.lockstep.testkit.resource.RedisStock;
import dev.lockstep.testkit.resource.StaleTokenException;
import dev.lockstep.testkit.scenario.ScenarioContext;
import java.util.Optional;

/** The resource a fenced stage's holders write to with their tokens, on a node of its own. */
final class FencedResource {

    private static final String ITEM = "fenced-item";

    private final RedisStock stock;
    /** The newest token the resource took. */
    private long fence;

    private FencedResource(RedisStock stock) {
        this.stock = stock;
    }

    /** The resource on a new node of {@code context}, its item stocked. */
    static FencedResource start(ScenarioContext context) {
        RedisStock stock = new RedisStock(context.startNode(NodeConfig.defaults()).newClient());
        stock.stock(ITEM, 100);
        return new FencedResource(stock);
    }

    /** The step's owner (a thread, or a handle) writes with its token: a live holder's write is taken, and tokens never go back. */
    Optional<Violation> write(RunContext run, Step step, String actor) {
        int c = step.client();
        int t = step.thread();
        HoldSlots.Held held = Step.isHandle(t) ? run.held(c, t) : null;
        if (Step.isHandle(t) && (held == null || held.clientClosed)) {
            run.log().note(actor, Kind.NOTE, step + " -> no open handle in the slot: nothing to write with");
            return Optional.empty();
        }
        OwnerModel owner = run.model().owner(c, t, Side.WRITE);
        FencedLock lock = (FencedLock) run.lock(c, Side.WRITE);
        boolean live = owner.surelyHolds() && owner.shakenUntil <= System.nanoTime() && !owner.beliefUnknown
                && owner.fixedLeaseEnd == 0;
        // A handle's token is read on the handle's own thread, not the one that took it.
        Object token = held != null ? run.call(c, t, () -> held.hold.token().orElseThrow()) : run.call(c, t, lock::token);
        if (!(token instanceof Long fenceToken)) {
            run.log().note(actor, Kind.NOTE, step + " -> no token: " + OwnerCalls.describe(token));
            return live ? Optional.of(new Violation("fence", step + ": token() refused a thread the model says holds "
                    + owner + ": " + OwnerCalls.describe(token))) : Optional.empty();
        }
        try {
            stock.write(ITEM, fenceToken, fenceToken);
            run.log().note(actor, Kind.NOTE, step + " -> token " + fenceToken + " written");
            if (fenceToken < fence) {
                return Optional.of(new Violation("fence", "token " + fenceToken + " was written after token " + fence));
            }
            fence = fenceToken;
            return Optional.empty();
        } catch (StaleTokenException e) {
            run.log().note(actor, Kind.NOTE, step + " -> token " + fenceToken + " refused: " + e.getMessage());
            return live ? Optional.of(new Violation("fence", step + ": a live holder's token " + fenceToken
                    + " is older than one the resource saw (" + fence + ")")) : Optional.empty();
        }
    }
}
