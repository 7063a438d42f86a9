package dev.lockstep.examples.inventory;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import redis.clients.jedis.Jedis;

/** The accounts' HTTP contract on stage 7, over real HTTP and a real Redis: an account order, its fencing, and bad input. */
class AccountApiTest extends StageSevenService {

    private static final String P1 = "{\"id\":\"p1\",\"stock\":3,\"price\":4,\"sold\":0,\"orders\":0}";
    private static final String C1 = "{\"id\":\"c1\",\"balance\":10,\"spent\":0,\"orders\":0}";

    @BeforeEach
    void restockAndFund() throws Exception {
        assertEquals(P1, service.call("PUT", "/products/p1", "{\"stock\": 3, \"price\": 4}").body());
        assertEquals(C1, service.call("PUT", "/accounts/c1", "{\"balance\": 10}").body());
    }

    @Test
    void anOrderSellsTheUnitsAndChargesTheAccountCarryingBothTokens() throws Exception {
        HttpResponse<String> sold = order("c1", "{\"product\": \"p1\", \"quantity\": 2}");
        assertAll(
                () -> assertEquals(201, sold.statusCode(), sold.body()),
                () -> assertTrue(sold.body().startsWith("{\"customer\":\"c1\",\"product\":\"p1\",\"quantity\":2,\"cost\":8,"
                        + "\"stockLeft\":1,\"balanceLeft\":2,\"number\":1,\"productToken\":"), sold.body()),
                () -> assertTrue(sold.body().contains("\"accountToken\":"), sold.body()),
                () -> assertEquals("{\"id\":\"p1\",\"stock\":1,\"price\":4,\"sold\":2,\"orders\":1}", get("/products/p1")),
                () -> assertEquals("{\"id\":\"c1\",\"balance\":2,\"spent\":8,\"orders\":1}", get("/accounts/c1")));
    }

    /** A later holder of the account's lock read or wrote first: the order writes neither the stock nor the balance. */
    @Test
    void anOrderWhoseAccountTokenIsStaleGets503AndChangesNeitherHash() throws Exception {
        try (Jedis admin = node.admin()) {
            admin.hset("inventory:account:c1", "fence", "1000000");
        }
        HttpResponse<String> refused = order("c1", "{\"product\": \"p1\", \"quantity\": 1}");
        assertEquals(503, refused.statusCode(), refused.body());
        assertTrue(refused.body().contains("a lock on p1 or account c1 expired while this order worked"), refused.body());
        try (Jedis admin = node.admin()) {
            assertAll(
                    () -> assertEquals(P1, get("/products/p1")),
                    () -> assertEquals(C1, get("/accounts/c1")),
                    () -> assertEquals("0", admin.hget("inventory:product:p1", "fence"), "the product's fence did not move"));
        }
    }

    @ParameterizedTest(name = "{0} {1} {2}: {3}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        "POST | /accounts/nope/orders  | {\"product\": \"p1\", \"quantity\": 1}   | 404 | no account nope",
        "POST | /accounts/c1/orders    | {\"product\": \"nope\", \"quantity\": 1} | 404 | no product nope",
        "POST | /accounts/c1/orders    | {\"quantity\": 1}                       | 400 | product must be given",
        "POST | /accounts/c1/orders    | {\"product\": \"p1\"}                   | 400 | quantity must be given and at least 1, was null",
        "POST | /accounts/c1/orders    | {\"product\": \"p x\", \"quantity\": 1}  | 400 | a product id is 1 to 64 letters",
        "POST | /accounts/c%20x/orders | {\"product\": \"p1\", \"quantity\": 1}   | 400 | an account id is 1 to 64 letters",
        "POST | /accounts/c1/orders    | {\"product\": \"p1\", \"quantity\": 3}   | 409 | c1 has a balance of 10; the order costs 12",
        "POST | /accounts/c1/orders    | {\"product\": \"p1\", \"quantity\": 4}   | 409 | p1 has 3 in stock; the order asked for 4",
        "PUT  | /accounts/c1           | {\"balance\": -1}                       | 400 | balance must be given and not negative, was -1",
        "GET  | /accounts/nope         |                                         | 404 | no account nope",
    })
    void badRequestsGet4xxWithAClearBodyAndChangeNothing(String method, String path, String json, int status,
                                                          String detail) throws Exception {
        Set<String> keysBefore = keys();
        HttpResponse<String> response = callAsListed(method, path, json);
        assertAll(
                () -> assertEquals(status, response.statusCode(), response.body()),
                () -> assertTrue(response.body().contains(detail), response.body()),
                () -> assertEquals(P1, get("/products/p1")),
                () -> assertEquals(C1, get("/accounts/c1")),
                () -> assertEquals(keysBefore, keys(), "keys in Redis"));
    }

    private static HttpResponse<String> order(String customer, String json) throws Exception {
        return service.call("POST", "/accounts/" + customer + "/orders", json);
    }
}
