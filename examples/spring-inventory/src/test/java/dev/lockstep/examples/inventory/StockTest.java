package dev.lockstep.examples.inventory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.lockstep.testkit.fixture.SingleNodeTest;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpStatus;

/** Stage 7's fenced sale on a real Redis: the successor's read moves the fence, so one unit is sold once. */
class StockTest extends SingleNodeTest {

    @Test
    void aHolderThatWritesBetweenItsSuccessorsReadAndWriteIsRefused() {
        Stock stock = new Stock(closedAfter(node.newClient()));
        stock.restock("p1", 10, 1);
        // A (token 41) reads and pauses past its lease; B (token 42) reads; A wakes and writes; B writes.
        long aRead = stock.readFenced("p1", 41);
        long bRead = stock.readFenced("p1", 42);
        Refusal refused = assertThrows(Refusal.class, () -> stock.sellFenced("p1", aRead - 1, 1, 41));
        assertEquals(HttpStatus.SERVICE_UNAVAILABLE, refused.status());
        assertEquals(1, stock.sellFenced("p1", bRead - 1, 1, 42), "B's sale is the first order");
        assertEquals(Optional.of(new Product("p1", 9, 1, 1, 1)), stock.find("p1"), "one unit sold, once");
    }

    @Test
    void anOlderTokensReadIsRefusedAndAnUnknownProductIsNotCreated() {
        Stock stock = new Stock(closedAfter(node.newClient()));
        stock.restock("p2", 10, 1);
        stock.readFenced("p2", 42);
        assertEquals(HttpStatus.SERVICE_UNAVAILABLE, assertThrows(Refusal.class, () -> stock.readFenced("p2", 41)).status());
        assertEquals(10, stock.readFenced("p2", 42), "the same holder may read again");
        assertEquals(HttpStatus.NOT_FOUND, assertThrows(Refusal.class, () -> stock.readFenced("nope", 1)).status());
        assertEquals(Optional.empty(), stock.find("nope"));
    }
}
