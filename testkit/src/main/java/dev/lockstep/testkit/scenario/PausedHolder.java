package dev.lockstep.testkit.scenario;

import dev.lockstep.Guarantee;
import dev.lockstep.LockOptions;
import dev.lockstep.testkit.client.ClientProcess;
import dev.lockstep.testkit.history.Actor;
import dev.lockstep.testkit.history.History;
import dev.lockstep.testkit.history.History.Kind;
import dev.lockstep.testkit.resource.StockTable;
import dev.lockstep.testkit.resource.StockTable.Row;
import dev.lockstep.testkit.resource.StockTable.Versioned;
import dev.lockstep.testkit.stage.Stage;
import java.time.Duration;

/**
 * The pause no lease can see. A, in its own JVM, takes the lock, checks that it holds it and
 * reads the stock; then it is stopped (SIGSTOP) before its write, past its lease. B takes the
 * lock, sells one item and unlocks. A resumes and writes what it computed before the pause. With
 * no token the table takes A's stale write and one sale is lost; a table that checks tokens
 * refuses it. With no lock at all (the optimistic update), each write names the row version it
 * read: A's is refused, and A sells again from a fresh read. Judged from the table's row and the
 * writes it accepted.
 */
public final class PausedHolder extends Scenario {

    private static final String LOCK = "orders";
    private static final String ITEM = "book";
    /** The lane the table's own state is drawn in. */
    private static final String TABLE = "table";
    private static final long IN_STOCK = 10;
    private static final Duration LEASE = Duration.ofMillis(500);
    private static final Duration STARTUP = Duration.ofSeconds(10);
    private static final Duration B_WAIT = Duration.ofSeconds(10);

    /** The scenario as the catalog lists it. */
    public PausedHolder() {
        super("paused-holder", Guarantee.FENCED,
                "A reads the stock, then its JVM is stopped past its lease before it writes; B takes the lock "
                + "and sells one; A resumes and writes its stale count: one sale is lost unless the table checks tokens.");
    }

    @Override
    public Verdict run(ScenarioContext context) throws Exception {
        if (context.stage().ground() == Stage.Ground.NONE) {
            return withoutLock(context);
        }
        History history = context.history();
        LockOptions options = Stage.leaseOptions(LEASE);
        try (StockTable table = StockTable.start(ITEM, IN_STOCK)) {
            ClientProcess a = context.process("A", options);
            Actor b = context.actor("B", options);
            a.lock(LOCK, null, STARTUP);
            Long aToken = tokenOfAFreshHold(a, LOCK);
            if (aToken != null) {
                history.record("A", Kind.NOTE, "token " + aToken);
            }
            long aRead = a.readStock(table, ITEM, aToken);
            a.pause();
            // B's acquisition is the sign that A's lease ran out while A was stopped.
            if (!b.tryLock(LOCK, B_WAIT, null)) {
                throw new IllegalStateException("B could not take the lock of a holder stopped past its lease");
            }
            Long bToken = b.token(LOCK);
            long bRead = b.readStock(table, ITEM, bToken);
            b.writeStock(table, ITEM, bRead - 1, bToken);
            b.unlock(LOCK);
            a.resume();
            boolean aWritten = a.writeStock(table, ITEM, aRead - 1, aToken);
            Row after = table.row(ITEM);
            history.record(TABLE, Kind.NOTE, "stock " + IN_STOCK + " -> " + after.quantity()
                    + (after.fence() > 0 ? ", fence " + after.fence() : ""));
            long sold = aWritten ? 2 : 1;
            if (after.quantity() != IN_STOCK - sold) {
                return Verdict.violated("the table took " + sold + " sales but the stock went from " + IN_STOCK
                        + " to " + after.quantity() + ": A's write, computed before its pause, overwrote B's sale.");
            }
            return Verdict.held("the table refused A's token " + aToken + " once B had written with token " + bToken
                    + ": stock " + IN_STOCK + " -> " + after.quantity() + ", one sale, none lost.");
        }
    }

    /** The optimistic update: A reads with the version and is stopped; B sells; A's write is refused, and A retries. */
    private static Verdict withoutLock(ScenarioContext context) throws Exception {
        try (StockTable table = StockTable.start(ITEM, IN_STOCK)) {
            OptimisticSale sale = new OptimisticSale(context.history(), table, ITEM);
            ClientProcess a = context.process("A", Stage.leaseOptions(LEASE));
            Versioned aRead = a.readVersioned(table, ITEM);
            a.pause();
            sale.sellOrRetry("B", sale.read("B"));
            a.resume();
            sale.sellOrRetry(a, aRead);
            return sale.judge(IN_STOCK, TABLE);
        }
    }
}
