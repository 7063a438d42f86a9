package dev.lockstep.examples.inventory;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.lockstep.CompositeLocks;
import dev.lockstep.DistLock;
import dev.lockstep.LockOptions;
import dev.lockstep.Locks;
import dev.lockstep.examples.inventory.load.InProcessService;
import dev.lockstep.multi.MultiNameLock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import redis.clients.jedis.Jedis;

/**
 * Account orders beside a restock job that takes the same two locks listed the other way round,
 * on every stage the service offers: no deadlock, and no restock or order lost.
 */
class AccountJobTest extends AccountOrders {

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

}
