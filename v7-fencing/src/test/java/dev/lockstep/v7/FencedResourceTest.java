package dev.lockstep.v7;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockstep.testkit.fixture.SingleNodeTest;
import dev.lockstep.testkit.resource.RedisStock;
import dev.lockstep.testkit.resource.StaleTokenException;
import dev.lockstep.testkit.resource.StockTable;
import dev.lockstep.testkit.resource.StockTable.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** The resource's half of fencing, in a SQL table and in Redis: an older token is refused, clearly, and changes nothing. */
class FencedResourceTest extends SingleNodeTest {

    @Test
    void theTableRefusesAnOlderTokenAndKeepsItsRow() {
        try (StockTable table = StockTable.start("book", 10)) {
            StockTable.write(table.url(), "book", 9, 42);
            StockTable.write(table.url(), "book", 8, 42);
            StaleTokenException refused = assertThrows(StaleTokenException.class,
                    () -> StockTable.write(table.url(), "book", 9, 41));
            assertEquals("write to 'book' with token 41 refused: token 42 got there first", refused.getMessage());
            assertEquals(new Row(8, 42), table.row("book"), "the holder with token 42 may write twice; 41 changes nothing");
            StockTable.write(table.url(), "book", 7, 43);
            assertEquals(new Row(7, 43), table.row("book"));
        }
    }

    @Test
    void badInputIsRefusedAtTheCallNamingTheArgument() {
        RedisStock stock = new RedisStock(closedAfter(node.newClient()));
        try (StockTable table = StockTable.start("book", 10)) {
            assertMessage(IllegalArgumentException.class, "token", () -> StockTable.write(table.url(), "book", 9, -1));
            assertMessage(IllegalArgumentException.class, "token", () -> StockTable.write(table.url(), "book", 9, 0));
            assertMessage(NullPointerException.class, "item", () -> StockTable.write(table.url(), null, 9, 1));
            assertMessage(IllegalArgumentException.class, "token", () -> StockTable.read(table.url(), "book", 0));
            assertMessage(NullPointerException.class, "item", () -> StockTable.read(table.url(), null, 1));
            assertMessage(IllegalArgumentException.class, "token", () -> stock.write("book", 9, -1));
            assertMessage(NullPointerException.class, "item", () -> stock.write(null, 9, 1));
            assertMessage(IllegalArgumentException.class, "token", () -> stock.read("book", 0));
            assertMessage(NullPointerException.class, "item", () -> stock.read(null, 1));
            assertEquals(new Row(10, 0), table.row("book"), "nothing written");
        }
    }

    private static void assertMessage(Class<? extends RuntimeException> type, String argument, Executable call) {
        RuntimeException e = assertThrows(type, call);
        assertTrue(e.getMessage().contains(argument), "the message names " + argument + ": " + e.getMessage());
    }

    @Test
    void theRedisResourceRefusesAnOlderTokenAndKeepsItsHash() {
        RedisStock stock = new RedisStock(closedAfter(node.newClient()));
        stock.stock("pen", 10);
        stock.write("pen", 9, 42);
        stock.write("pen", 8, 42);
        StaleTokenException refused = assertThrows(StaleTokenException.class, () -> stock.write("pen", 9, 41));
        assertEquals("write to 'pen' with token 41 refused: token 42 got there first", refused.getMessage());
        assertEquals(new Row(8, 42), stock.row("pen"));
        stock.write("pen", 7, 43);
        assertEquals(new Row(7, 43), stock.row("pen"));
    }
}
