package dev.lockstep.examples.inventory;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockstep.DistLock;
import dev.lockstep.LockOptions;
import dev.lockstep.Locks;
import dev.lockstep.examples.inventory.load.InProcessService;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import redis.clients.jedis.Jedis;

/**
 * Account orders on every stage the service offers, over real HTTP and a real Redis: one lock over
 * the product and the account keeps crowded orders from selling a unit twice or spending a balance
 * twice, and a refused or timed-out order leaves neither lock held. Without a lock the same crowd
 * sells and charges twice. {@link AccountJobTest} runs the orders beside a job that takes the two
 * locks in the other order.
 */
class AccountOrderTest extends AccountOrders {

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Stage.class, names = "NONE", mode = EnumSource.Mode.EXCLUDE)
    void crowdedOrdersNeverSellAUnitTwiceNorSpendABalanceTwice(Stage stage) throws Exception {
        try (InProcessService service = start(stage, PATIENT, "--inventory.work=5ms")) {
            List<Answer> answers = crowd(service);
            assertAll(answers.stream().map(answer -> () -> assertTrue(answer.status() == 201 || answer.status() == 409,
                    answer.customer() + " buying " + answer.product() + ": " + answer.status() + " " + answer.body())));
            List<Purchase> sold = answers.stream().filter(answer -> answer.status() == 201)
                    .map(answer -> JSON.readValue(answer.body(), Purchase.class)).toList();
            for (String product : STOCK.keySet()) {
                Product now = JSON.readValue(service.call("GET", "/products/" + product, null).body(), Product.class);
                long units = sold.stream().filter(purchase -> purchase.product().equals(product)).count();
                assertAll(product,
                        () -> assertTrue(now.stock() >= 0, "stock " + now.stock()),
                        () -> assertEquals(units, now.sold(), "units sold, as the 201s count them"),
                        () -> assertEquals(STOCK.get(product), now.stock() + now.sold(), "stock plus units sold"));
            }
            for (String customer : BALANCE.keySet()) {
                Account now = JSON.readValue(service.call("GET", "/accounts/" + customer, null).body(), Account.class);
                List<Purchase> paid = sold.stream().filter(purchase -> purchase.customer().equals(customer)).toList();
                assertAll(customer,
                        () -> assertTrue(now.balance() >= 0, "balance " + now.balance()),
                        () -> assertEquals(paid.size(), now.orders(), "orders paid, as the 201s count them"),
                        () -> assertEquals(paid.stream().mapToLong(Purchase::cost).sum(), now.spent(), "spent, as the 201s count it"),
                        () -> assertEquals(BALANCE.get(customer), now.balance() + now.spent(), "balance plus spent"));
            }
            assertEquals(0, JSON.readValue(service.call("GET", "/products/p1", null).body(), Product.class).stock(),
                    "p1 sold out: the crowd asks for three times its stock, and c2 can pay for all of it");
            assertNothingHeld();
        }
    }

    /** The same crowd without a lock: orders read the same stock and balance, and write the same numbers back. */
    @Test
    void withoutALockTheCrowdSellsOrChargesTwice() throws Exception {
        try (InProcessService service = start(Stage.NONE, "--inventory.work=10ms")) {
            crowd(service);
            Product p1 = JSON.readValue(service.call("GET", "/products/p1", null).body(), Product.class);
            Account c1 = JSON.readValue(service.call("GET", "/accounts/c1", null).body(), Account.class);
            Account c2 = JSON.readValue(service.call("GET", "/accounts/c2", null).body(), Account.class);
            assertTrue(p1.stock() + p1.sold() > STOCK.get("p1") || c1.balance() + c1.spent() > BALANCE.get("c1")
                            || c2.balance() + c2.spent() > BALANCE.get("c2"),
                    "expected a unit sold twice or a balance spent twice: " + p1 + " " + c1 + " " + c2);
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Stage.class, names = "NONE", mode = EnumSource.Mode.EXCLUDE)
    void aFailedOrderLeavesNeitherLockHeldAndChangesNothing(Stage stage) throws Exception {
        try (InProcessService service = start(stage, "--inventory.lock-wait=300ms", "--inventory.work=0ms")) {
            assertEquals(200, service.call("PUT", "/products/p1", "{\"stock\": 1, \"price\": 5}").statusCode());
            assertEquals(200, service.call("PUT", "/accounts/poor", "{\"balance\": 3}").statusCode());
            assertEquals(200, service.call("PUT", "/accounts/rich", "{\"balance\": 100}").statusCode());

            assertRefused(service, buy(service, "poor", "p1", 1), 409, "poor has a balance of 3; the order costs 5");
            assertRefused(service, buy(service, "rich", "p1", 2), 409, "p1 has 1 in stock; the order asked for 2");
            assertRefused(service, buy(service, "nobody", "p1", 1), 404, "no account nobody");
            assertRefused(service, buy(service, "rich", "nope", 1), 404, "no product nope");

            Locks elsewhere = closedAfter(stage.open(List.of(closedAfter(node.newClient())), LockOptions.defaults()));
            for (String busy : List.of("inventory:lock:p1", "inventory:lock:account:rich")) {
                DistLock held = elsewhere.get(busy);
                held.lock();
                try {
                    HttpResponse<String> refused = service.call("POST", "/accounts/rich/orders", "{\"product\": \"p1\", \"quantity\": 1}");
                    assertEquals(503, refused.statusCode(), refused.body());
                    assertTrue(refused.body().contains("the locks on p1 and account rich were not both free within 300 ms"),
                            refused.body());
                    try (Jedis admin = node.admin()) {
                        assertEquals(List.of(busy), heldLocks(admin), "only the lock held elsewhere, while " + busy + " is");
                    }
                } finally {
                    held.unlock();
                }
            }
            assertEquals("{\"id\":\"p1\",\"stock\":1,\"price\":5,\"sold\":0,\"orders\":0}", service.call("GET", "/products/p1", null).body());
            assertEquals("{\"id\":\"rich\",\"balance\":100,\"spent\":0,\"orders\":0}", service.call("GET", "/accounts/rich", null).body());
            assertNothingHeld();

            Answer sold = buy(service, "rich", "p1", 1);
            assertEquals(201, sold.status(), sold.body());
            assertEquals("{\"id\":\"rich\",\"balance\":95,\"spent\":5,\"orders\":1}", service.call("GET", "/accounts/rich", null).body());
            assertNothingHeld();
        }
    }

    /**
     * 45 orders of one unit from 8 threads, shuffled: c1 buys p1 and p2 (one account, two products),
     * c2 buys p1 (two accounts, one product). p1 has a third of the units asked for, c1 a quarter
     * of what its orders would cost.
     */
    private static List<Answer> crowd(InProcessService service) throws Exception {
        restockAndFund(service);
        List<String[]> orders = new ArrayList<>();
        for (int i = 0; i < 15; i++) {
            orders.add(new String[] {"c1", "p1"});
            orders.add(new String[] {"c1", "p2"});
            orders.add(new String[] {"c2", "p1"});
        }
        Collections.shuffle(orders, new Random(7));
        ExecutorService threads = Executors.newFixedThreadPool(8);
        try {
            List<Future<Answer>> pending = new ArrayList<>();
            for (String[] order : orders) {
                pending.add(threads.submit(() -> buy(service, order[0], order[1])));
            }
            List<Answer> answers = new ArrayList<>();
            for (Future<Answer> answer : pending) {
                answers.add(answer.get(DEADLINE_SECONDS, TimeUnit.SECONDS));
            }
            return answers;
        } finally {
            threads.shutdownNow();
        }
    }

    private static void assertRefused(InProcessService service, Answer answer, int status, String detail) {
        assertEquals(status, answer.status(), answer.body());
        assertTrue(answer.body().contains(detail), answer.body());
        assertNothingHeld();
    }

}
