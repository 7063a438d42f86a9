package dev.lockstep.testkit;

import java.util.ArrayDeque;
import java.util.Deque;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;

/**
 * A test class on one real {@code redis-server}, started before its first test and stopped after
 * its last; whatever a test opens with {@link #closedAfter} is closed after that test, newest
 * first, so clients close before the connections they use.
 */
public abstract class SingleNodeTest {

    /** Starts {@link #node}, and any other node a test asks for. */
    protected static RedisFixture fixture;
    /** The class's Redis. */
    protected static RedisNode node;

    private final Deque<AutoCloseable> opened = new ArrayDeque<>();

    @BeforeAll
    static void startRedis() {
        fixture = RedisFixture.processes();
        node = fixture.start();
    }

    @AfterAll
    static void stopRedis() {
        if (fixture != null) {
            fixture.close();
        }
    }

    /** Closes what the test opened, newest first. */
    @AfterEach
    protected final void closeOpened() throws Exception {
        while (!opened.isEmpty()) {
            opened.pop().close();
        }
    }

    /** {@code resource}, closed after the test, before anything opened earlier. */
    protected final <T extends AutoCloseable> T closedAfter(T resource) {
        opened.push(resource);
        return resource;
    }
}
