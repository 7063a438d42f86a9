package dev.lockstep.testkit.scenario;

import dev.lockstep.testkit.client.ClientProcess;
import dev.lockstep.testkit.history.History;
import dev.lockstep.testkit.history.History.Event;
import dev.lockstep.testkit.history.History.Kind;
import dev.lockstep.testkit.resource.StockTable;
import dev.lockstep.testkit.resource.StockTable.Versioned;
import dev.lockstep.testkit.scenario.Scenario.Verdict;

/**
 * The sale with no lock, as the stock stories tell it beside the locks: read the quantity and the
 * row's version, write one less only if the version has not moved, and on a refusal read again and
 * retry. Judged as the locked sales are: every write the table took is a sale, and each must have
 * taken one unit.
 */
final class OptimisticSale {

    private final History history;
    private final StockTable table;
    private final String item;

    OptimisticSale(History history, StockTable table, String item) {
        this.history = history;
        this.table = table;
        this.item = item;
    }

    /** In-process client {@code actor} reads the quantity and version; recorded. */
    Versioned read(String actor) {
        Versioned read = StockTable.readVersioned(table.url(), item);
        history.record(actor, Kind.ENTER, "reads stock=" + read.quantity() + " at version " + read.version());
        return read;
    }

    /** In-process client {@code actor} writes one less than {@code read} if the version has not moved; recorded. */
    boolean sell(String actor, Versioned read) {
        long quantity = read.quantity() - 1;
        boolean written = StockTable.writeIfVersion(table.url(), item, quantity, read.version());
        history.record(actor, written ? Kind.EXIT : Kind.NOTE, written
                ? "writes stock=" + quantity + " if at version " + read.version()
                : "write refused: the version moved on since the read");
        return written;
    }

    /** In-process client {@code actor} sells from {@code read}, and once more from a fresh read if refused. */
    void sellOrRetry(String actor, Versioned read) {
        if (!sell(actor, read)) {
            sell(actor, read(actor));
        }
    }

    /** Child-JVM client {@code process} sells from {@code read}, and once more from a fresh read if refused. */
    void sellOrRetry(ClientProcess process, Versioned read) {
        if (!process.writeIfVersion(table, item, read.quantity() - 1, read)) {
            Versioned again = process.readVersioned(table, item);
            process.writeIfVersion(table, item, again.quantity() - 1, again);
        }
    }

    /** Every write the table took was a sale: violated when fewer units left the stock than it took writes. */
    Verdict judge(long inStock, String lane) {
        long left = StockTable.readVersioned(table.url(), item).quantity();
        history.record(lane, Kind.NOTE, "stock " + inStock + " -> " + left);
        long sales = history.events().stream().map(Event::kind).filter(Kind.EXIT::equals).count();
        long gone = inStock - left;
        if (sales > gone) {
            return Verdict.violated("the table took " + sales + " sales but only " + gone + " unit left the stock.");
        }
        return Verdict.held("no lock, and none needed: each write named the version it read, the stale one was "
                + "refused and retried from a fresh read: " + sales + " sales, " + gone + " units gone.");
    }
}
