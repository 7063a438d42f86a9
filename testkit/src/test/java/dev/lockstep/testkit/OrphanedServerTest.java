package dev.lockstep.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.HostAndPort;

/**
 * A JVM killed with SIGKILL runs no shutdown hook, yet the redis-server it started must not
 * outlive it: the node's watchdog notices the parent is gone and kills the server.
 */
class OrphanedServerTest {

    /** The child JVM: starts one node, prints its port, and waits to be killed. */
    public static final class Parent {
        public static void main(String[] args) throws InterruptedException {
            RedisNode node = RedisFixture.processes().start();
            System.out.println("port " + node.address().getPort());
            System.out.flush();
            Thread.sleep(Duration.ofMinutes(5).toMillis());
        }
    }

    @Test
    void aServerDiesWithTheJvmThatStartedIt() throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process parent = new ProcessBuilder(java.toString(), "-cp", System.getProperty("java.class.path"),
                Parent.class.getName()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(parent.getInputStream(), StandardCharsets.UTF_8));
            String line = out.readLine();
            while (line != null && !line.startsWith("port ")) {
                line = out.readLine();
            }
            assertTrue(line != null, "the child JVM never reported its node");
            HostAndPort address = new HostAndPort("127.0.0.1", Integer.parseInt(line.substring(5)));
            assertTrue(RedisNode.answersPing(address), "the node should run while its JVM lives");

            parent.destroyForcibly();
            assertTrue(parent.waitFor(10, TimeUnit.SECONDS));
            assertEquals(137, parent.exitValue(), "the JVM should have died by SIGKILL");

            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (RedisNode.answersPing(address) && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            assertTrue(!RedisNode.answersPing(address), "redis-server outlived the JVM that started it");
        } finally {
            parent.destroyForcibly();
        }
    }
}
