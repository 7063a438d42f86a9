package dev.lockstep.v6;

import dev.lockstep.testkit.fixture.RedisFixture;
import dev.lockstep.testkit.fixture.RedisNode;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.UnifiedJedis;

/**
 * Independent real masters for a test class (started by its own {@code @BeforeAll} through
 * {@link #startMasters}), emptied before each test, resumed and with every client closed after it.
 */
abstract class IndependentMastersTest {

    static RedisFixture fixture;
    static List<RedisNode> nodes;

    private final Deque<AutoCloseable> opened = new ArrayDeque<>();

    /** Starts {@code count} masters with the stage's scripts loaded. */
    static void startMasters(int count) {
        fixture = RedisFixture.processes();
        List<RedisNode> started = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            started.add(fixture.start());
        }
        nodes = List.copyOf(started);
        nodes.forEach(QuorumTestSupport::loadScripts);
    }

    @AfterAll
    static void stopMasters() {
        if (fixture != null) {
            fixture.close();
        }
    }

    @BeforeEach
    void emptyNodes() {
        for (RedisNode node : nodes) {
            try (Jedis admin = node.admin()) {
                admin.flushAll();
            }
        }
    }

    /** Safety net only: every test resumes its own paused nodes in a finally block. */
    @AfterEach
    void resumeAndClose() throws Exception {
        nodes.forEach(RedisNode::resume);
        while (!opened.isEmpty()) {
            opened.pop().close();
        }
    }

    /** Node clients of {@code over}, closed after the test. */
    List<UnifiedJedis> clientsOf(List<RedisNode> over) {
        List<UnifiedJedis> clients = new ArrayList<>();
        for (RedisNode node : over) {
            RedisClient client = node.newClient();
            opened.push(client);
            clients.add(client);
        }
        return clients;
    }

    /** Closes {@code resource} after the test, before what was opened earlier. */
    <T extends AutoCloseable> T closedAfter(T resource) {
        opened.push(resource);
        return resource;
    }
}
