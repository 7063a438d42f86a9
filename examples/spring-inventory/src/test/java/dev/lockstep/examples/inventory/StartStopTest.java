package dev.lockstep.examples.inventory;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.lockstep.testkit.Await;
import dev.lockstep.examples.inventory.load.InProcessService;
import dev.lockstep.testkit.SingleNodeTest;
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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import redis.clients.jedis.Jedis;

/**
 * The service starts and stops as a deployment restarts it, and leaves nothing behind: after a
 * run of crowded orders (waiters, a subscriber thread, a watchdog) and a shutdown, the JVM has the
 * threads it had and Redis the connections it had.
 */
class StartStopTest extends SingleNodeTest {

    private static final Duration SETTLE = Duration.ofSeconds(10);
    private static final int ORDERS = 40;
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @ParameterizedTest
    @ValueSource(strings = {"v4-watchdog", "v7-fencing"})
    void aStoppedServiceLeavesNoThreadOrRedisConnection(String stage) throws Exception {
        // A first start loads what a JVM starts once (Tomcat's and Spring's static threads, if any).
        runCrowdedOrders(stage);
        Set<String> threadsBefore = liveThreads();
        long connectionsBefore = connections();

        runCrowdedOrders(stage);

        Await.until("the service's threads end: " + newThreads(threadsBefore), SETTLE,
                () -> newThreads(threadsBefore).isEmpty());
        Await.until("the service's Redis connections close", SETTLE, () -> connections() <= connectionsBefore);
    }

    private static void runCrowdedOrders(String stage) throws Exception {
        try (InProcessService service = new InProcessService(node, HTTP, List.of("--lockstep.stage=" + stage, "--inventory.work=5ms"))) {
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
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive)
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
