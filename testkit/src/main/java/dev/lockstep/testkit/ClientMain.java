package dev.lockstep.testkit;

import dev.lockstep.DistLock;
import dev.lockstep.LockOptions;
import dev.lockstep.Locks;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.RedisClient;

/**
 * The program a {@link ClientProcess} runs: a stage's lock in its own JVM, driven line by line
 * over stdin ({@code lock NAME LEASE_MS|default}, {@code unlock NAME}), answering on stdout.
 * It exits when stdin closes, so it never outlives the JVM that started it.
 */
public final class ClientMain {

    static final String REPLY = "lockstep> ";

    private ClientMain() {
    }

    /** Args: Locks class name, host, port, default lease ms (fixed or watchdog), spin interval ms. */
    public static void main(String[] args) throws Exception {
        @SuppressWarnings("unchecked")
        Class<? extends Locks> locksClass = (Class<? extends Locks>) Class.forName(args[0]);
        LockOptions options = ScenarioContext.leaseOptions(Duration.ofMillis(Long.parseLong(args[3])))
                .withSpinInterval(Duration.ofMillis(Long.parseLong(args[4])));
        RedisClient redis = RedisNode.newClient(new HostAndPort(args[1], Integer.parseInt(args[2])));
        Locks locks = Stage.open(locksClass, redis, options);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        reply("ready");
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            String[] words = line.split(" ");
            DistLock lock = locks.get(words[1]);
            try {
                switch (words[0]) {
                    case "lock" -> {
                        lock.lock("default".equals(words[2]) ? null : Duration.ofMillis(Long.parseLong(words[2])));
                        reply("acquired");
                    }
                    case "unlock" -> {
                        lock.unlock();
                        reply("unlocked");
                    }
                    default -> reply("error unknown command " + words[0]);
                }
            } catch (RuntimeException e) {
                reply("error " + e);
            }
        }
        // stdin closed: the parent is gone. Exit as a crash would, without unlocking.
        Runtime.getRuntime().halt(0);
    }

    private static void reply(String message) {
        System.out.println(REPLY + message);
        System.out.flush();
    }
}
