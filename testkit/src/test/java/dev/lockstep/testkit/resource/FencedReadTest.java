package dev.lockstep.testkit.resource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockstep.testkit.fixture.SingleNodeTest;
import dev.lockstep.testkit.resource.StockTable.Row;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.UnifiedJedis;

/**
 * A fenced read moves the fence, in the SQL table and in Redis: the successor's read, not only its
 * write, shuts out an older holder, so a holder that wakes between the successor's read and its
 * write cannot sell the unit the successor is about to sell.
 */
class FencedReadTest extends SingleNodeTest {

    /** The fenced calls both resources offer, on one item. */
    private interface FencedStock {
        long read(long token);

        void write(long quantity, long token);

        Row row();
    }

    @Test
    void theTableRefusesAHolderThatWritesBetweenItsSuccessorsReadAndWrite() {
        try (StockTable table = StockTable.start("book", 10)) {
            assertOneSaleInTheReadGap(table("book", table), "book");
        }
    }

    @Test
    void theRedisStockRefusesAHolderThatWritesBetweenItsSuccessorsReadAndWrite() {
        RedisStock stock = new RedisStock(closedAfter(node.newClient()));
        stock.stock("pen", 10);
        assertOneSaleInTheReadGap(redis("pen", stock), "pen");
    }

    /** A (token 41) reads 10 and pauses; B (42) reads 10; A wakes and writes 9; B writes 9. */
    private static void assertOneSaleInTheReadGap(FencedStock stock, String item) {
        long aRead = stock.read(41);
        long bRead = stock.read(42);
        assertEquals(10, aRead);
        assertEquals(10, bRead);
        StaleTokenException refused = assertThrows(StaleTokenException.class, () -> stock.write(aRead - 1, 41));
        assertEquals("write to '" + item + "' with token 41 refused: token 42 got there first", refused.getMessage());
        stock.write(bRead - 1, 42);
        assertEquals(new Row(9, 42), stock.row(), "one unit sold, by B; A was refused");
    }

    @Test
    void theTableRefusesAnOlderReadAndLetsAHolderReadAgain() {
        try (StockTable table = StockTable.start("book", 10)) {
            assertOlderReadRefused(table("book", table), "book");
        }
    }

    @Test
    void theRedisStockRefusesAnOlderReadAndLetsAHolderReadAgain() {
        RedisStock stock = new RedisStock(closedAfter(node.newClient()));
        stock.stock("pen", 10);
        assertOlderReadRefused(redis("pen", stock), "pen");
    }

    private static void assertOlderReadRefused(FencedStock stock, String item) {
        assertEquals(10, stock.read(42));
        assertEquals(10, stock.read(42), "a holder may read again with its token");
        StaleTokenException refused = assertThrows(StaleTokenException.class, () -> stock.read(41));
        assertEquals("read of '" + item + "' with token 41 refused: token 42 got there first", refused.getMessage());
        assertEquals(new Row(10, 42), stock.row(), "a refused read changes nothing");
        assertEquals(10, stock.read(43));
        assertEquals(new Row(10, 43), stock.row());
    }

    @Test
    void thePlainPathsLeaveTheFenceAlone() {
        try (StockTable table = StockTable.start("book", 10)) {
            StockTable.write(table.url(), "book", 9);
            assertEquals(new Row(9, 0), table.row("book"), "a plain write, as stages 1 to 6 use it, moves no fence");
        }
    }

    @Test
    void badReadsAreRefusedAtTheCallAndWriteNothing() {
        UnifiedJedis redis = closedAfter(node.newClient());
        RedisStock stock = new RedisStock(redis);
        try (StockTable table = StockTable.start("book", 10)) {
            assertThrows(IllegalArgumentException.class, () -> StockTable.read(table.url(), "pen", 1));
            assertTrue(assertThrows(IllegalArgumentException.class, () -> StockTable.read(table.url(), "book", 0))
                    .getMessage().contains("token"));
            assertEquals(new Row(10, 0), table.row("book"));
        }
        assertThrows(IllegalArgumentException.class, () -> stock.read("nothing", 1));
        assertFalse(redis.exists("stock:nothing"), "no hash created for an unknown item");
        assertThrows(NullPointerException.class, () -> stock.read(null, 1));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> stock.read("nothing", -1))
                .getMessage().contains("token"));
    }

    private static FencedStock table(String item, StockTable table) {
        return new FencedStock() {
            @Override
            public long read(long token) {
                return StockTable.read(table.url(), item, token);
            }

            @Override
            public void write(long quantity, long token) {
                StockTable.write(table.url(), item, quantity, token);
            }

            @Override
            public Row row() {
                return table.row(item);
            }
        };
    }

    private static FencedStock redis(String item, RedisStock stock) {
        return new FencedStock() {
            @Override
            public long read(long token) {
                return stock.read(item, token);
            }

            @Override
            public void write(long quantity, long token) {
                stock.write(item, quantity, token);
            }

            @Override
            public Row row() {
                return stock.row(item);
            }
        };
    }
}
