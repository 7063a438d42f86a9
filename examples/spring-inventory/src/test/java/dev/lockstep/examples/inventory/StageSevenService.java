package dev.lockstep.examples.inventory;

import dev.lockstep.examples.inventory.load.InProcessService;
import dev.lockstep.testkit.fixture.SingleNodeTest;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import redis.clients.jedis.Jedis;

/**
 * The service on stage 7, in the test's JVM, over real HTTP and a real Redis: the ground of the
 * HTTP contract's test classes. A refused lock answers within 300 ms, and orders do no work.
 */
abstract class StageSevenService extends SingleNodeTest {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    /** The running service. */
    static InProcessService service;

    @BeforeAll
    static void startService() {
        service = new InProcessService(node, HTTP, List.of("--lockstep.kind=v7-fencing", "--inventory.lock-wait=300ms", "--inventory.work=0ms"));
    }

    @AfterAll
    static void stopService() {
        service.close();
    }

    /** The answer to {@code method path} with {@code json} as the body, as the CSV tables spell them (padded, or null). */
    static HttpResponse<String> callAsListed(String method, String path, String json) throws Exception {
        return service.call(method.strip(), path.strip(), json == null ? null : json.strip());
    }

    /** The body of {@code GET path}. */
    static String get(String path) throws Exception {
        return service.call("GET", path, null).body();
    }

    /**
     * The keys in Redis, but stage 7's token counters: an order for an unknown product takes the
     * lock before it reads the stock, and a token counter only ever grows (a bounded set, one per slot).
     */
    static Set<String> keys() {
        try (Jedis admin = node.admin()) {
            Set<String> keys = admin.keys("*");
            keys.removeIf(key -> key.startsWith("lockstep_fence:"));
            return keys;
        }
    }
}
