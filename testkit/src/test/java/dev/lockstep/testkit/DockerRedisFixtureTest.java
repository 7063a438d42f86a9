package dev.lockstep.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.opentest4j.TestAbortedException;
import org.testcontainers.DockerClientFactory;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.exceptions.JedisException;

class DockerRedisFixtureTest {

    @Test
    void withoutDockerTheFixtureSkipsTheTestInsteadOfFailingIt() {
        assumeFalse(DockerClientFactory.instance().isDockerAvailable(), "Docker is available here");
        TestAbortedException skip = assertThrows(TestAbortedException.class, DockerRedisFixture::new);
        assertTrue(skip.getMessage().contains("Docker is not available"), skip.getMessage());
    }

    /** Pulls and runs {@code redis:7}, so only on request, like the rest of the suite on Docker. */
    @Nested
    @EnabledIfSystemProperty(named = "lockstep.redis", matches = "docker",
            disabledReason = "containers run only with -Dlockstep.redis=docker")
    class OnDocker {

        private DockerRedisFixture fixture;

        @BeforeEach
        void startFixture() {
            fixture = new DockerRedisFixture(); // without Docker this aborts: the test is skipped
        }

        @AfterEach
        void stopFixture() {
            if (fixture != null) {
                fixture.close();
            }
        }

        @Test
        void setGetThenPauseStallsAndResumeAnswers() {
            assertEquals("docker redis:7 (Testcontainers)", fixture.description());
            RedisNode node = fixture.start();
            try (RedisClient client = node.newClient()) {
                client.set("k", "v");
                assertEquals("v", client.get("k"));

                node.pause();
                assertThrows(JedisException.class, () -> client.get("k"), "a paused server must not answer");
                node.resume();
                assertEquals("v", client.get("k"));
            }
        }

        @Test
        void restartKeepsTheAddressAndOnlyAofKeepsTheData() {
            RedisNode durable = fixture.start(NodeConfig.defaults().withAof());
            RedisNode plain = fixture.start();
            HostAndPort before = durable.address();
            for (RedisNode node : new RedisNode[] {durable, plain}) {
                try (Jedis admin = node.admin()) {
                    admin.set("k", "v");
                }
                node.restart();
            }
            assertEquals(before, durable.address());
            try (Jedis admin = durable.admin()) {
                assertEquals("v", admin.get("k"));
            }
            try (Jedis admin = plain.admin()) {
                assertNull(admin.get("k"));
            }
        }

        @Test
        void replicaFollowsItsMasterThroughTheLinkAndCanBePromoted() throws InterruptedException {
            RedisNode master = fixture.start();
            RedisNode replica = fixture.start();
            replica.replicaOf(master);
            try (Jedis admin = master.admin()) {
                admin.set("k", "v");
            }
            try (Jedis admin = replica.admin()) {
                long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
                while (!"v".equals(admin.get("k")) && System.nanoTime() < deadline) {
                    Thread.sleep(50);
                }
                assertEquals("v", admin.get("k"), "the replica never caught up");
            }
            replica.promote();
            try (Jedis admin = replica.admin()) {
                assertEquals("OK", admin.set("own", "write"), "a promoted replica takes writes");
            }
        }
    }
}
