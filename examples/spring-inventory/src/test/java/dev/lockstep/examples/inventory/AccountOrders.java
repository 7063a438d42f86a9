package dev.lockstep.examples.inventory;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.lockstep.examples.inventory.load.InProcessService;
import dev.lockstep.testkit.fixture.SingleNodeTest;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import redis.clients.jedis.Jedis;
import tools.jackson.databind.json.JsonMapper;

/**
 * The ground of the account-order test classes: the service started afresh for each test on a
 * flushed Redis, the stock, prices and balances they start from, and how they order and check.
 * Two classes, so that their service starts go side by side in two test JVMs.
 */
abstract class AccountOrders extends SingleNodeTest {

    static final HttpClient HTTP = HttpClient.newHttpClient();
    static final JsonMapper JSON = JsonMapper.builder().build();
    /** Far beyond what any test here should take: reaching it means something hung. */
    static final long DEADLINE_SECONDS = 60;
    /** Long enough that no order in a crowd gives up on a lock that is only busy: a 503 there means a hang. */
    static final String PATIENT = "--inventory.lock-wait=10s";
    static final Map<String, Long> STOCK = Map.of("p1", 10L, "p2", 100L);
    static final Map<String, Long> PRICE = Map.of("p1", 2L, "p2", 3L);
    static final Map<String, Long> BALANCE = Map.of("c1", 20L, "c2", 100L);

    static InProcessService start(Stage stage, String... settings) {
        List<String> args = new ArrayList<>(List.of(stage.setting()));
        args.addAll(List.of(settings));
        try (Jedis admin = node.admin()) {
            admin.flushAll();
        }
        return new InProcessService(node, HTTP, args);
    }

    static void restockAndFund(InProcessService service) throws Exception {
        for (String product : STOCK.keySet()) {
            String body = "{\"stock\": " + STOCK.get(product) + ", \"price\": " + PRICE.get(product) + "}";
            assertEquals(200, service.call("PUT", "/products/" + product, body).statusCode());
        }
        for (String customer : BALANCE.keySet()) {
            assertEquals(200, service.call("PUT", "/accounts/" + customer, "{\"balance\": " + BALANCE.get(customer) + "}").statusCode());
        }
    }

    static Answer buy(InProcessService service, String customer, String product) throws Exception {
        return buy(service, customer, product, 1);
    }

    static Answer buy(InProcessService service, String customer, String product, int quantity) throws Exception {
        HttpResponse<String> response = service.call("POST", "/accounts/" + customer + "/orders",
                "{\"product\": \"" + product + "\", \"quantity\": " + quantity + "}");
        return new Answer(customer, product, response.statusCode(), response.body());
    }

    /** No lock key is left in Redis: every order, refused or not, gave back both of its locks. */
    static void assertNothingHeld() {
        try (Jedis admin = node.admin()) {
            assertEquals(List.of(), heldLocks(admin));
        }
    }

    static List<String> heldLocks(Jedis admin) {
        return admin.keys("inventory:lock:*").stream().sorted().collect(Collectors.toList());
    }

    /** What the service answered {@code customer}'s order for {@code product}. */
    record Answer(String customer, String product, int status, String body) {
    }
}
