package dev.lockstep.testkit.client;

import dev.lockstep.DistLock;
import dev.lockstep.FencedLock;
import dev.lockstep.LockOptions;
import dev.lockstep.Locks;
import dev.lockstep.testkit.fixture.RedisNode;
import dev.lockstep.testkit.fixture.ServerSecurity;
import dev.lockstep.testkit.resource.StaleTokenException;
import dev.lockstep.testkit.resource.StockTable;
import dev.lockstep.testkit.stage.Stage;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.RedisClient;

/**
 * The program a {@link ClientProcess} runs: a stage's lock in its own JVM, driven line by line
 * over stdin ({@code lock NAME LEASE_MS|default}, {@code unlock NAME}, {@code token NAME},
 * {@code holds NAME}, {@code id}: the client id), answering on stdout; and the holder's side of a {@link StockTable}
 * ({@code read URL ITEM TOKEN|none}, {@code write URL ITEM QUANTITY TOKEN|none}), also optimistically
 * ({@code vread URL ITEM}, answering quantity and version; {@code vwrite URL ITEM QUANTITY VERSION}).
 * It exits when stdin closes, so it never outlives the JVM that started it.
 */
public final class ClientMain {

    static final String REPLY = "lockstep> ";

    /** The class argument of a client with no lock at all: it only reads and writes the table. */
    static final String NO_LOCK = "none";

    private ClientMain() {
    }

    /**
     * Args: Locks class name ({@value #NO_LOCK} for none), default lease ms (fixed or watchdog), spin
     * interval ms, nodes as host:port,host:port..., and how the servers let clients in ({@link ServerSecurity}).
     */
    public static void main(String[] args) throws Exception {
        Locks locks = NO_LOCK.equals(args[0]) ? null : open(args);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        reply("ready");
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            String[] words = line.split(" ");
            try {
                if (stockCommand(words)) {
                    continue;
                }
                if (words[0].equals("id")) {
                    reply(locks == null ? "none" : locks.clientId());
                    continue;
                }
                DistLock lock = locks.get(words[1]);
                switch (words[0]) {
                    case "lock" -> {
                        lock.lock("default".equals(words[2]) ? null : Duration.ofMillis(Long.parseLong(words[2])));
                        reply("acquired");
                    }
                    case "unlock" -> {
                        lock.unlock();
                        reply("unlocked");
                    }
                    case "token" -> reply(lock instanceof FencedLock fenced ? Long.toString(fenced.token()) : "none");
                    case "holds" -> reply(Boolean.toString(lock.isHeldByCurrentThread()));
                    default -> reply("error unknown command " + words[0]);
                }
            } catch (RuntimeException e) {
                reply("error " + e);
            }
        }
        // stdin closed: the parent is gone. Exit as a crash would, without unlocking.
        Runtime.getRuntime().halt(0);
    }

    /**
     * The stage's client: on a ZooKeeper ensemble, the nodes are its connect string; on Redis, one
     * client per node.
     */
    private static Locks open(String[] args) throws ClassNotFoundException {
        Stage stage = new Stage("child", Class.forName(args[0]).asSubclass(Locks.class));
        LockOptions options = Stage.leaseOptions(Duration.ofMillis(Long.parseLong(args[1])))
                .withSpinInterval(Duration.ofMillis(Long.parseLong(args[2])));
        if (stage.ground() == Stage.Ground.ZOOKEEPER) {
            return stage.open(args[3], options);
        }
        List<RedisClient> nodes = Arrays.stream(args[3].split(","))
                .map(address -> RedisNode.newClient(HostAndPort.from(address), ServerSecurity.valueOf(args[4]))).toList();
        return stage.open(nodes, options);
    }

    /** Runs a {@link StockTable} command; false when {@code words} is not one. */
    private static boolean stockCommand(String[] words) {
        switch (words[0]) {
            case "read" -> {
                try {
                    reply(Long.toString("none".equals(words[3]) ? StockTable.row(words[1], words[2]).quantity()
                            : StockTable.read(words[1], words[2], Long.parseLong(words[3]))));
                } catch (StaleTokenException e) {
                    reply("refused " + e.getMessage());
                }
            }
            case "write" -> {
                long quantity = Long.parseLong(words[3]);
                try {
                    if ("none".equals(words[4])) {
                        StockTable.write(words[1], words[2], quantity);
                    } else {
                        StockTable.write(words[1], words[2], quantity, Long.parseLong(words[4]));
                    }
                    reply("written");
                } catch (StaleTokenException e) {
                    reply("refused " + e.getMessage());
                }
            }
            case "vread" -> {
                StockTable.Versioned read = StockTable.readVersioned(words[1], words[2]);
                reply(read.quantity() + " " + read.version());
            }
            case "vwrite" -> reply(StockTable.writeIfVersion(words[1], words[2], Long.parseLong(words[3]),
                    Long.parseLong(words[4])) ? "written" : "refused: the version moved on since the read");
            default -> {
                return false;
            }
        }
        return true;
    }

    private static void reply(String message) {
        System.out.println(REPLY + message);
        System.out.flush();
    }
}
