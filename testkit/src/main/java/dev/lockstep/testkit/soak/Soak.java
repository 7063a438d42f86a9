package dev.lockstep.testkit.soak;

import dev.lockstep.Guarantee;
import dev.lockstep.testkit.fault.FaultyLink;
import dev.lockstep.testkit.fixture.NodeConfig;
import dev.lockstep.testkit.fixture.RedisFixture;
import dev.lockstep.testkit.fixture.RedisNode;
import dev.lockstep.testkit.stage.Stage;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

/**
 * A soak of one stage: several client JVMs hammer a few locks on real Redis nodes while faults,
 * drawn at random from the whole catalogue with a seed, hit the servers and the clients' side of
 * the wire, one at a time. Then every client stops and unlocks, and the {@link SoakVerdict}
 * reads what the clients printed. Bounded by its duration; it stops by itself.
 */
public final class Soak {

    /**
     * How a soak runs.
     *
     * @param duration how long faults are injected
     * @param seed     the fault draw and the workers' choices; the same seed draws the same faults
     * @param clients  how many client JVMs
     * @param threads  worker threads per client
     * @param locks    how many lock names they share
     * @param lease    the watchdog lease (renewed every third of it)
     */
    public record Settings(Duration duration, long seed, int clients, int threads, int locks, Duration lease) {

        /** Three clients of four workers on three locks, a 2 s lease. */
        public static Settings of(Duration duration, long seed) {
            return new Settings(duration, seed, 3, 4, 3, Duration.ofSeconds(2));
        }
    }

    private Soak() {
    }

    /** Soaks {@code stage} on fresh nodes from {@code fixture}, telling {@code progress} each fault. */
    public static SoakVerdict run(Stage stage, RedisFixture fixture, Settings settings, PrintStream progress)
            throws InterruptedException {
        Random random = new Random(settings.seed());
        List<RedisNode> nodes = new ArrayList<>();
        for (int i = 0; i < stage.nodeCount(); i++) {
            nodes.add(fixture.start(new NodeConfig(true)));
        }
        List<String> lockNames = new ArrayList<>();
        for (int i = 1; i <= settings.locks(); i++) {
            lockNames.add("soak-" + i);
        }
        ConcurrentLinkedQueue<SoakEvent> events = new ConcurrentLinkedQueue<>();
        List<SoakClient> clients = new ArrayList<>();
        List<SoakVerdict.Injected> faults = new ArrayList<>();
        Map<Fault, Integer> faultCounts = new EnumMap<>(Fault.class);
        long keysWithoutTtl = 0;
        try {
            for (int i = 1; i <= settings.clients(); i++) {
                clients.add(new SoakClient("c" + i, stage, settings.lease(), settings.threads(), lockNames, nodes,
                        settings.seed() * 101 + i, events::add));
            }
            Fault.Target target = new Fault.Target() {
                @Override
                public List<RedisNode> nodes() {
                    return nodes;
                }

                @Override
                public List<SoakClient> clients() {
                    return clients;
                }
            };
            List<Fault> menu = Arrays.stream(Fault.values())
                    .filter(f -> !f.needsSubscriptions() || stage.claims().contains(Guarantee.EFFICIENT_WAIT))
                    .toList();
            long end = System.nanoTime() + settings.duration().toNanos();
            while (System.nanoTime() < end) {
                Thread.sleep(Fault.quietBetween(random).toMillis());
                keysWithoutTtl += keysWithoutTtl(nodes);
                Fault fault = menu.get(random.nextInt(menu.size()));
                long from = System.nanoTime();
                String what = fault.inject(target, random);
                faults.add(new SoakVerdict.Injected(fault, from, System.nanoTime(), what));
                faultCounts.merge(fault, 1, Integer::sum);
                progress.printf("  %s %4d s  %-22s %s%n", stage.name(),
                        Duration.ofNanos(System.nanoTime() - (end - settings.duration().toNanos())).toSeconds(),
                        fault.label(), what);
            }
            for (SoakClient client : clients) {
                client.links().forEach(FaultyLink::heal);
            }
            for (SoakClient client : clients) {
                client.stop(Duration.ofSeconds(30));
            }
            // Holds of crashed clients run out within a lease; anything left after that is stuck.
            Thread.sleep(settings.lease().plusSeconds(1).toMillis());
            List<String> stuck = stuckKeys(nodes, lockNames);
            keysWithoutTtl += keysWithoutTtl(nodes);
            return SoakVerdict.judge(stage, settings, new ArrayList<>(events), faults, faultCounts, stuck,
                    keysWithoutTtl);
        } finally {
            clients.forEach(SoakClient::close);
            nodes.forEach(RedisNode::close);
        }
    }

    /** Keys without a TTL on any node, every key counted (queues, timeout keys), the token counters left out. */
    private static long keysWithoutTtl(List<RedisNode> nodes) {
        long found = 0;
        for (RedisNode node : nodes) {
            try (Jedis admin = node.admin()) {
                String cursor = ScanParams.SCAN_POINTER_START;
                do {
                    ScanResult<String> page = admin.scan(cursor);
                    for (String key : page.getResult()) {
                        if (!key.startsWith(Stage.TOKEN_COUNTERS) && admin.pttl(key) == -1) {
                            found++;
                        }
                    }
                    cursor = page.getCursor();
                } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
            } catch (RuntimeException nodeBusy) {
                // A node just restarted: the next sample looks again.
            }
        }
        return found;
    }

    private static List<String> stuckKeys(List<RedisNode> nodes, List<String> lockNames) {
        List<String> stuck = new ArrayList<>();
        for (RedisNode node : nodes) {
            try (Jedis admin = node.admin()) {
                for (String name : lockNames) {
                    String key = name;
                    if (admin.exists(key)) {
                        stuck.add(key + " on " + node.label() + ": " + admin.hgetAll(key) + ", pttl " + admin.pttl(key));
                    }
                }
            }
        }
        return stuck;
    }
}
