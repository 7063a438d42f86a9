package dev.lockstep.examples.inventory;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.lockstep.examples.inventory.load.InProcessService;
import dev.lockstep.testkit.client.Threads;
import dev.lockstep.testkit.fixture.Await;
import dev.lockstep.testkit.fixture.SingleNodeTest;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * The service starts and stops as a deployment restarts it, and leaves nothing behind: after a
 * run of crowded orders (waiters, a subscriber thread, a watchdog) and a shutdown, the JVM has the
 * threads it had and Redis the connections it had.
 */
class StartStopTest extends SingleNodeTest {

    /** Stage 7: the watchdog, the subscriber and the tokens of stages 4, 5 and 7, all in one. */
    private static final String STAGE = "v7-fencing";
    private static final Duration SETTLE = Duration.ofSeconds(10);
    private static final int ORDERS = 40;
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @Test
    void aStoppedServiceLeavesNoThreadOrRedisConnection() throws Exception {
        // A first start loads what a JVM starts once (Tomcat's and Spring's static threads, if any).
        runCrowdedOrders();
        Set<String> threadsBefore = liveThreads();
        long connectionsBefore = connections();

        runCrowdedOrders();

        try {
            Await.until("the service's threads end", SETTLE, () -> newThreads(threadsBefore).isEmpty());
        } catch (AssertionError e) {
            throw new AssertionError("threads left running: " + newThreads(threadsBefore), e);
        }
        Await.until("the service's Redis connections close", SETTLE, () -> connections() <= connectionsBefore);
    }

    private static void runCrowdedOrders() throws Exception {
        try (InProcessService service = new InProcessService(node, HTTP, List.of("--lockstep.kind=" + STAGE, "--inventory.work=5ms"))) {
            assertEquals(200, service.call("PUT", "/products/crowded", "{\"stock\": " + ORDERS + "}").statusCode());
            ExecutorService clients = Executors.newFixedThreadPool(8);
            try {
                List<Future<HttpResponse<String>>> answers = new ArrayList<>();
                for (int i = 0; i < ORDERS; i++) {
                    answers.add(clients.submit(() -> service.call("POST", "/products/crowded/orders", "{\"quantity\": 1}")));
                }
                for (Future<HttpResponse<String>> answer : answers) {
                    assertEquals(201, answer.get().statusCode(), answer.get().body());
                }
            } finally {
                clients.shutdownNow();
            }
        }
    }

    /** Live threads, but the test's own HTTP client's, which idle for a minute before they end. */
    private static Set<String> liveThreads() {
        return Threads.live().stream()
                .filter(thread -> !thread.getName().startsWith("HttpClient-"))
                .map(thread -> thread.getName() + "#" + thread.getId()).collect(Collectors.toSet());
    }

    private static Set<String> newThreads(Set<String> before) {
        Set<String> now = liveThreads();
        now.removeAll(before);
        return now;
    }

    /** Clients connected to the node, the admin connection that asks included. */
    private static long connections() {
        try (Jedis admin = node.admin()) {
            return admin.clientList().lines().count();
        }
    }
}
