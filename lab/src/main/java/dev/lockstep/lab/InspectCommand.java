package dev.lockstep.lab;

import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import redis.clients.jedis.RedisClient;

/** {@code lab inspect NAME}: who holds a lock, read from Redis without changing it. */
@Command(name = "inspect", mixinStandardHelpOptions = true,
        description = {"Reads lock NAME in your Redis, Lockstep's or Redisson's (one layout), and prints who holds it",
                "and how often, the lease left, a fair lock's waiters and a read-write lock's readers.",
                "Read-only: TYPE, HGETALL, PTTL, LRANGE, ZRANGE, TIME."})
final class InspectCommand implements Callable<Integer> {

    @Parameters(paramLabel = "NAME", description = "The lock's name, as given to Locks.get or Redisson's getLock.")
    private String name;

    @Option(names = "--url", defaultValue = "redis://localhost:6379", paramLabel = "URL",
            description = "Your Redis. Default: ${DEFAULT-VALUE}.")
    private URI url;

    @Option(names = "--trust", paramLabel = "PEM",
            description = "For a rediss:// URL: trust the CA certificate in this PEM file instead of the JDK's.")
    private Path trust;

    @Spec
    private CommandSpec spec;

    /** Prints the lock's reading; the exit status. */
    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        List<RedisClient> clients = new ArrayList<>();
        try {
            RedisClient redis = RedisUrls.connect(List.of(url), trust, clients).get(0);
            out.println("lock '" + name + "' on " + RedisUrls.withoutPassword(url));
            LockReading.of(redis, name).forEach(line -> out.println("  " + line));
            return 0;
        } finally {
            clients.forEach(RedisClient::close);
            out.flush();
        }
    }
}
