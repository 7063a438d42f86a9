package dev.lockstep.examples.inventory;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockstep.CompositeLocks;
import dev.lockstep.DistLock;
import dev.lockstep.LockOptions;
import dev.lockstep.Locks;
import dev.lockstep.examples.inventory.load.InProcessService;
import dev.lockstep.multi.MultiNameLock;
import dev.lockstep.testkit.fixture.SingleNodeTest;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import redis.clients.jedis.Jedis;
import tools.jackson.databind.json.JsonMapper;

/**
 * Account orders on every stage the service offers, over real HTTP and a real Redis: one lock over
 * the product and the account keeps crowded orders from selling a unit twice or spending a balance
 * twice, never deadlocks against a job that takes the two locks in another order, and a refused
 * or timed-out order leaves neither lock held. Without a lock the same crowd sells and charges twice.
 */
class AccountOrderTest extends SingleNodeTest {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final JsonMapper JSON = JsonMapper.builder().build();
    /** Far beyond what any test here should take: reaching it means something hung. */
    private static final long DEADLINE_SECONDS = 60;
    /** Long enough that no order in a crowd gives up on a lock that is only busy: a 503 there means a hang. */
    private static final String PATIENT = "--inventory.lock-wait=10s";
    private static final Map<String, Long> STOCK = Map.of("p1", 10L, "p2", 100L);
    private static final Map<String, Long> PRICE = Map.of("p1", 2L, "p2", 3L);
    private static final Map<String, Long> BALANCE = Map.of("c1", 20L, "c2", 100L);

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

    /** How the restock job takes the account's and the product's locks, listing them the other way round from the service. */
    enum Job {
        /** One lock over both, the names listed account first. */
        COMPOSITE_ACCOUNT_FIRST,
        /** By hand, the account's lock and then the product's. */
        NESTED_ACCOUNT_FIRST
    }

    static Stream<Arguments> stagesAndJobs() {
        return Arrays.stream(Stage.values()).filter(stage -> stage != Stage.NONE)
                .flatMap(stage -> Arrays.stream(Job.values()).map(job -> Arguments.of(stage, job)));
    }

    /**
     * Orders, which list the product first, run beside a restock job, a second client of the same
     * stage, that lists the account first and adds a unit to the stock by reading it and writing it
     * back. Had the service nested the two locks by hand in its listed order, it would deadlock with
     * the nesting job (from stage 4 on the watchdog keeps both holds alive): orders would time out
     * with 503. A restock that overlapped an order would be lost.
     */
    @ParameterizedTest(name = "{0}, {1}")
    @MethodSource("stagesAndJobs")
    void aJobTakingTheLocksInAnotherOrderNeverDeadlocksWithOrders(Stage stage, Job job) throws Exception {
        int restocks = 20;
        int orders = 30;
        try (InProcessService service = start(stage, PATIENT, "--inventory.work=2ms")) {
            restockAndFund(service);
            Locks jobClient = closedAfter(stage.open(List.of(closedAfter(node.newClient())), LockOptions.defaults()));
            ExecutorService threads = Executors.newFixedThreadPool(5);
            try {
                List<Future<Answer>> pending = new ArrayList<>();
                for (int i = 0; i < orders; i++) {
                    pending.add(threads.submit(() -> buy(service, "c2", "p2")));
                }
                Future<?> restocking = threads.submit(() -> {
                    for (int i = 0; i < restocks; i++) {
                        underJobLocks(job, jobClient, () -> {
                            try (Jedis redis = node.admin()) {
                                long stock = Long.parseLong(redis.hget("inventory:product:p2", "stock"));
                                redis.hset("inventory:product:p2", "stock", Long.toString(stock + 1));
                            }
                        });
                    }
                    return null;
                });
                restocking.get(DEADLINE_SECONDS, TimeUnit.SECONDS);
                List<Answer> answers = new ArrayList<>();
                for (Future<Answer> answer : pending) {
                    answers.add(answer.get(DEADLINE_SECONDS, TimeUnit.SECONDS));
                }
                assertAll(answers.stream().map(answer -> () -> assertEquals(201, answer.status(), answer.body())));
            } finally {
                threads.shutdownNow();
            }
            Product p2 = JSON.readValue(service.call("GET", "/products/p2", null).body(), Product.class);
            assertEquals(new Product("p2", STOCK.get("p2") + restocks - orders, PRICE.get("p2"), orders, orders), p2,
                    "every restock and every order counted once");
            assertNothingHeld();
        }
    }

    private static void underJobLocks(Job job, Locks client, Runnable restock) {
        String account = "inventory:lock:account:c2";
        String product = "inventory:lock:p2";
        if (job == Job.COMPOSITE_ACCOUNT_FIRST) {
            DistLock both = client instanceof CompositeLocks composite ? composite.getAll(account, product)
                    : new MultiNameLock(client.get(account), client.get(product));
            both.lock();
            try {
                restock.run();
            } finally {
                both.unlock();
            }
            return;
        }
        DistLock outer = client.get(account);
        DistLock inner = client.get(product);
        outer.lock();
        try {
            inner.lock();
            try {
                restock.run();
            } finally {
                inner.unlock();
            }
        } finally {
            outer.unlock();
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

    private static InProcessService start(Stage stage, String... settings) {
        List<String> args = new ArrayList<>(List.of(stage.setting()));
        args.addAll(List.of(settings));
        try (Jedis admin = node.admin()) {
            admin.flushAll();
        }
        return new InProcessService(node, HTTP, args);
    }

    private static void restockAndFund(InProcessService service) throws Exception {
        for (String product : STOCK.keySet()) {
            String body = "{\"stock\": " + STOCK.get(product) + ", \"price\": " + PRICE.get(product) + "}";
            assertEquals(200, service.call("PUT", "/products/" + product, body).statusCode());
        }
        for (String customer : BALANCE.keySet()) {
            assertEquals(200, service.call("PUT", "/accounts/" + customer, "{\"balance\": " + BALANCE.get(customer) + "}").statusCode());
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

    private static Answer buy(InProcessService service, String customer, String product) throws Exception {
        return buy(service, customer, product, 1);
    }

    private static Answer buy(InProcessService service, String customer, String product, int quantity) throws Exception {
        HttpResponse<String> response = service.call("POST", "/accounts/" + customer + "/orders",
                "{\"product\": \"" + product + "\", \"quantity\": " + quantity + "}");
        return new Answer(customer, product, response.statusCode(), response.body());
    }

    private static void assertRefused(InProcessService service, Answer answer, int status, String detail) {
        assertEquals(status, answer.status(), answer.body());
        assertTrue(answer.body().contains(detail), answer.body());
        assertNothingHeld();
    }

    /** No lock key is left in Redis: every order, refused or not, gave back both of its locks. */
    private static void assertNothingHeld() {
        try (Jedis admin = node.admin()) {
            assertEquals(List.of(), heldLocks(admin));
        }
    }

    private static List<String> heldLocks(Jedis admin) {
        return admin.keys("inventory:lock:*").stream().sorted().collect(Collectors.toList());
    }

    /** What the service answered {@code customer}'s order for {@code product}. */
    private record Answer(String customer, String product, int status, String body) {
    }
}
