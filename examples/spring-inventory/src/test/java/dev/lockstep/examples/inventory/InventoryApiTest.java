package dev.lockstep.examples.inventory;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockstep.DistLock;
import dev.lockstep.LockOptions;
import dev.lockstep.v7.FencedLocks;
import java.net.http.HttpResponse;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.RedisClient;

/** The HTTP contract on stage 7, over real HTTP and a real Redis: orders, refusals, and bad input. */
class InventoryApiTest extends StageSevenService {

    @BeforeEach
    void restock() throws Exception {
        assertEquals(200, service.call("PUT", "/products/p1", "{\"stock\": 2}").statusCode());
    }

    @Test
    void ordersSellTheStockThenGet409() throws Exception {
        HttpResponse<String> first = order("p1", "{\"quantity\": 1}");
        HttpResponse<String> second = order("p1", "{\"quantity\": 1}");
        HttpResponse<String> third = order("p1", "{\"quantity\": 1}");
        assertAll(
                () -> assertEquals(201, first.statusCode(), first.body()),
                () -> assertTrue(first.body().contains("\"stockLeft\":1"), first.body()),
                () -> assertTrue(first.body().contains("\"token\":"), "stage 7 answers with the write's token: " + first.body()),
                () -> assertEquals(201, second.statusCode(), second.body()),
                () -> assertEquals(409, third.statusCode(), third.body()),
                () -> assertTrue(third.body().contains("p1 has 0 in stock; the order asked for 1"), third.body()),
                () -> assertEquals("{\"id\":\"p1\",\"stock\":0,\"price\":1,\"sold\":2,\"orders\":2}", product("p1")));
    }

    @Test
    void anOrderThatCannotTakeTheLockInTimeGets503AndSellsNothing() throws Exception {
        try (RedisClient redis = node.newClient(); FencedLocks other = new FencedLocks(redis, LockOptions.defaults())) {
            DistLock lock = other.get("inventory:lock:p1");
            lock.lock();
            HttpResponse<String> refused = order("p1", "{\"quantity\": 1}");
            lock.unlock();
            assertEquals(503, refused.statusCode(), refused.body());
            assertTrue(refused.body().contains("the lock on p1 was not free within 300 ms; nothing was sold"), refused.body());
        }
        assertEquals("{\"id\":\"p1\",\"stock\":2,\"price\":1,\"sold\":0,\"orders\":0}", product("p1"));
    }

    /** A restock is a {@code @Locked} method: it waits for the product's lock as an order does, and gives up the same way. */
    @Test
    void aRestockThatCannotTakeTheProductsLockInTimeGets503AndChangesNothing() throws Exception {
        try (RedisClient redis = node.newClient(); FencedLocks other = new FencedLocks(redis, LockOptions.defaults())) {
            DistLock lock = other.get("inventory:lock:p1");
            lock.lock();
            HttpResponse<String> refused = service.call("PUT", "/products/p1", "{\"stock\": 50}");
            lock.unlock();
            assertEquals(503, refused.statusCode(), refused.body());
            assertTrue(refused.body().contains("lock 'inventory:lock:p1' was not taken within 300 ms; nothing was changed"),
                    refused.body());
        }
        assertEquals("{\"id\":\"p1\",\"stock\":2,\"price\":1,\"sold\":0,\"orders\":0}", product("p1"));
    }

    @Test
    void anOrderWhoseTokenIsStaleGets503AndSellsNothing() throws Exception {
        try (Jedis admin = node.admin()) {
            // As if a later holder of the lock had read or written: the fence is past every token handed out so far.
            admin.hset("inventory:product:p1", "fence", "1000000");
        }
        HttpResponse<String> refused = order("p1", "{\"quantity\": 1}");
        assertEquals(503, refused.statusCode(), refused.body());
        assertTrue(refused.body().contains("expired while this order worked, and a later holder got to the stock first"),
                refused.body());
        assertEquals("{\"id\":\"p1\",\"stock\":2,\"price\":1,\"sold\":0,\"orders\":0}", product("p1"));
    }

    @ParameterizedTest(name = "{0} {1} {2}: {3}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        "POST | /products/nope/orders | {\"quantity\": 1}  | 404 | no product nope",
        "POST | /products/p1/orders   | {\"quantity\": -1} | 400 | quantity must be given and at least 1, was -1",
        "POST | /products/p1/orders   | {\"quantity\": 0}  | 400 | quantity must be given and at least 1, was 0",
        "POST | /products/p1/orders   | {}                 | 400 | quantity must be given and at least 1, was null",
        "POST | /products/p1/orders   | {\"quantity\": 1   | 400 | the body must be JSON such as",
        "POST | /products/p1/orders   | `\"quantity\": 1`  | 400 | the body must be JSON such as",
        "POST | /products/p1/orders   |                    | 400 | the body must be JSON such as {\\\"quantity\\\": 1}: none was sent",
        "POST | /products/p%20x/orders | {\"quantity\": 1} | 400 | a product id is 1 to 64 letters",
        "PUT  | /products/p1          | {\"stock\": -5}    | 400 | stock must be given and not negative, was -5",
        "PUT  | /products/p1          | {\"stock\": 5, \"price\": -1} | 400 | price must be 0 to 1000000000, was -1",
        "GET  | /products/nope         |                    | 404 | no product nope",
    })
    void badRequestsGet4xxWithAClearBodyAndChangeNothing(String method, String path, String json, int status,
                                                          String detail) throws Exception {
        Set<String> keysBefore = keys();
        HttpResponse<String> response = callAsListed(method, path, json);
        assertAll(
                () -> assertEquals(status, response.statusCode(), response.body()),
                () -> assertTrue(response.body().contains(detail), response.body()),
                () -> assertEquals("{\"id\":\"p1\",\"stock\":2,\"price\":1,\"sold\":0,\"orders\":0}", product("p1")),
                () -> assertEquals(keysBefore, keys(), "keys in Redis"));
    }

    private static HttpResponse<String> order(String product, String json) throws Exception {
        return service.call("POST", "/products/" + product + "/orders", json);
    }

    private static String product(String id) throws Exception {
        return get("/products/" + id);
    }
}
