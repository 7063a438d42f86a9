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

/** {@code lab inspect NAME...}: who holds a lock, read from Redis without changing it. */
@Command(name = "inspect", mixinStandardHelpOptions = true,
        description = {"Who holds lock NAME in your Redis, Lockstep's or Redisson's, read without changing it.",
                "Prints its holders (client and thread) and hold counts, the lease left, a fair lock's waiters, "
                        + "a read-write lock's mode, readers and writer, stage 7's fencing counter; for several names, "
                        + "each, and who holds them all. Read-only: TYPE, PTTL, GET, HGETALL, LRANGE, ZRANGE, TIME."})
final class InspectCommand implements Callable<Integer> {

    @Parameters(paramLabel = "NAME", arity = "1..*",
            description = "The lock's name, as given to Locks.get or Redisson's getLock; several for a lock over several names.")
    private List<String> names;

    @Option(names = {"--url", "--redis"}, defaultValue = "redis://localhost:6379", paramLabel = "URL",
            description = "Your Redis, redis://[user:password@]host:port[/db] or rediss://... Default: ${DEFAULT-VALUE}.")
    private URI url;

    @Option(names = "--trust", paramLabel = "PEM",
            description = "For a rediss:// URL: trust the CA certificate in this PEM file instead of the JDK's.")
    private Path trust;

    @Spec
    private CommandSpec spec;

    /** Prints what each name's lock holds; the exit status. */
    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        List<RedisClient> clients = new ArrayList<>();
        try {
            RedisClient redis = RedisUrls.connect(List.of(url), trust, clients).get(0);
            List<LockSnapshot> locks = new ArrayList<>();
            for (String name : names) {
                LockSnapshot lock = LockSnapshot.read(redis, name);
                locks.add(lock);
                out.println("lock '" + name + "' on " + RedisUrls.withoutPassword(url));
                LockDescription.of(lock).forEach(line -> out.println("  " + line));
            }
            if (locks.size() > 1) {
                LockDescription.together(locks).forEach(out::println);
            }
            return 0;
        } finally {
            clients.forEach(RedisClient::close);
            out.flush();
        }
    }
}
