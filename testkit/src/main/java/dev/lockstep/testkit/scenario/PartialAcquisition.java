package dev.lockstep.testkit.scenario;

import dev.lockstep.Guarantee;
import dev.lockstep.LockOptions;
import dev.lockstep.testkit.history.Actor;
import dev.lockstep.testkit.history.History;
import dev.lockstep.testkit.history.History.Event;
import dev.lockstep.testkit.history.History.Kind;
import dev.lockstep.testkit.history.KeyOwnership;
import dev.lockstep.testkit.history.NameHoldings;
import dev.lockstep.testkit.stage.Stage;
import java.time.Duration;
import java.util.List;

/**
 * A needs {@code inventory} and {@code order}, but B holds {@code order}. Taken by hand, A gets
 * {@code inventory}, gives up on {@code order} and returns without giving {@code inventory} back:
 * C, who needs only {@code inventory}, is shut out by a call that failed. A lock over both names
 * takes both or none. Judged from the history: who held {@code inventory} when C gave up, by
 * their own calls ({@link NameHoldings#holdersAt}) or, where no call admits to it, in Redis.
 */
public final class PartialAcquisition extends Scenario {

    private static final String INVENTORY = "inventory";
    private static final String ORDER = "order";
    /** Outlasts A's wait and C's, so a fixed lease is still on A's leftover when C asks. */
    private static final Duration LEASE = Duration.ofSeconds(2);
    private static final Duration A_WAIT = Duration.ofMillis(300);
    private static final Duration C_WAIT = Duration.ofMillis(500);
    private static final Duration WORK = Duration.ofMillis(50);

    /** The scenario as the catalog lists it. */
    public PartialAcquisition() {
        super("partial-acquisition", Guarantee.ALL_OR_NOTHING,
                "B holds order; A takes inventory, gives up on order and returns: "
                + "unless A's failed call gave inventory back, C cannot take it.");
    }

    @Override
    public Verdict run(ScenarioContext context) throws Exception {
        LockOptions options = Stage.leaseOptions(LEASE);
        context.keyColumns(INVENTORY, ORDER);
        Actor a = context.actor("A", options);
        Actor b = context.actor("B", options);
        Actor c = context.actor("C", options);
        if (!b.severalNames().tryLockAll(List.of(ORDER), Duration.ZERO, null)) {
            throw new TooSlowToPlay("B could not take a free lock");
        }
        if (a.severalNames().tryLockAll(List.of(INVENTORY, ORDER), A_WAIT, null)) {
            throw new IllegalStateException("A took order while B held it");
        }
        boolean cTook = c.severalNames().tryLockAll(List.of(INVENTORY), C_WAIT, null);
        if (cTook) {
            c.critical(WORK);
            c.severalNames().unlockAll();
        }
        b.severalNames().unlockAll();

        if (cTook) {
            return Verdict.held("A's call gave up on both names and left neither held: C took " + INVENTORY
                    + " at once.");
        }
        Event refusal = context.history().last(c.name(), Kind.DENIED);
        List<String> holders = NameHoldings.holdersAt(context.history(), INVENTORY, refusal.at());
        if (!holders.isEmpty()) {
            return Verdict.violated("C waited " + C_WAIT.toMillis() + " ms for " + INVENTORY + " in vain: "
                    + String.join(", ", holders) + " still held it, left over from a call that had failed.");
        }
        List<String> stored = storedFor(context.history(), refusal.at());
        if (stored.isEmpty()) {
            throw new IllegalStateException("C could not take " + INVENTORY + ", though nobody held it");
        }
        return Verdict.violated("C waited " + C_WAIT.toMillis() + " ms for " + INVENTORY + " in vain: Redis still "
                + "stored it for " + String.join(", ", stored) + ", whose failed call said it held nothing.");
    }

    /** Whom Redis stored {@link #INVENTORY} for at {@code at}: a hold no call of its owner's admits to. */
    private static List<String> storedFor(History history, long at) {
        return KeyOwnership.of(history).holds().stream()
                .filter(hold -> hold.node().equals(INVENTORY) || hold.node().endsWith(":" + INVENTORY))
                .filter(hold -> hold.from() <= at && (hold.end() == null || at <= hold.to()))
                .map(KeyOwnership.Hold::owner).distinct().toList();
    }
}
