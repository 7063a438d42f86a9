package dev.lockstep.testkit.scenario;

import dev.lockstep.Guarantee;
import dev.lockstep.LockOptions;
import dev.lockstep.testkit.client.ClientProcess;
import dev.lockstep.testkit.history.Actor;
import dev.lockstep.testkit.history.History;
import dev.lockstep.testkit.history.History.Event;
import dev.lockstep.testkit.history.History.Kind;
import dev.lockstep.testkit.resource.StockTable;
import dev.lockstep.testkit.resource.StockTable.Versioned;
import dev.lockstep.testkit.stage.Stage;
import java.time.Duration;

/**
 * The paused holder wakes in the successor's read-modify-write. A, in its own JVM, takes the lock,
 * reads the stock and is stopped (SIGSTOP) past its lease. B takes the lock and reads the same
 * stock; before B writes, A resumes and writes what it computed before the pause; then B writes.
 * A fence that moves only on a write has seen no newer token when A writes, so both writes go in:
 * two sales, one unit gone. A table whose read raises the fence to the reader's token refuses A.
 * With no lock (the optimistic update) both read the same version, and B's write is refused and
 * retried from a fresh read. Judged from the history: each write the table took is a recorded
 * exit, a sale.
 */
public final class FencedReadGap extends Scenario {

    private static final String LOCK = "orders";
    private static final String ITEM = "book";
    /** The lane the table's own state is drawn in. */
    private static final String TABLE = "table";
    private static final long IN_STOCK = 10;
    private static final Duration LEASE = Duration.ofMillis(500);
    private static final Duration STARTUP = Duration.ofSeconds(10);
    private static final Duration B_WAIT = Duration.ofSeconds(10);

    /** The scenario as the catalog lists it. */
    public FencedReadGap() {
        super("fenced-read-gap", Guarantee.FENCED,
                "A reads the stock and its JVM is stopped past its lease; B takes the lock and reads; A resumes and "
                + "writes before B does; then B writes: two sales take one unit unless B's read moved the fence.");
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
            a.resume();
            a.writeStock(table, ITEM, aRead - 1, aToken);
            b.writeStock(table, ITEM, bRead - 1, bToken);
            b.unlock(LOCK);
            long left = table.row(ITEM).quantity();
            history.record(TABLE, Kind.NOTE, "stock " + IN_STOCK + " -> " + left);
            long sales = history.events().stream().map(Event::kind).filter(Kind.EXIT::equals).count();
            long gone = IN_STOCK - left;
            if (sales > gone) {
                return Verdict.violated("the table took " + sales + " sales but only " + gone + " unit left the stock: "
                        + "A wrote in the gap between B's read and B's write, and B's write overwrote A's sale.");
            }
            return Verdict.held("B's read with token " + bToken + " moved the fence, so the table refused A's token "
                    + aToken + " between B's read and its write: " + sales + " sale, " + gone + " unit gone.");
        }
    }

    /** The optimistic update: A and B read the same version; A's write goes in, B's is refused, and B retries. */
    private static Verdict withoutLock(ScenarioContext context) throws Exception {
        try (StockTable table = StockTable.start(ITEM, IN_STOCK)) {
            OptimisticSale sale = new OptimisticSale(context.history(), table, ITEM);
            ClientProcess a = context.process("A", Stage.leaseOptions(LEASE));
            Versioned aRead = a.readVersioned(table, ITEM);
            a.pause();
            Versioned bRead = sale.read("B");
            a.resume();
            sale.sellOrRetry(a, aRead);
            sale.sellOrRetry("B", bRead);
            return sale.judge(IN_STOCK, TABLE);
        }
    }
}
