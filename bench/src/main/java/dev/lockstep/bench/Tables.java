package dev.lockstep.bench;

import dev.lockstep.LockOptions;
import dev.lockstep.bench.Results.Run;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.stream.Collectors;

/**
 * Prints the tables of {@code docs/performance.md} from a JMH JSON results file, every figure
 * beside the same run's Redisson figure and round trip:
 * {@code java -cp bench/target/benchmarks.jar dev.lockstep.bench.Tables bench/results/quick.json}.
 */
public final class Tables {

    private static final String CONTENDED = "ContendedThroughput.twoClients";
    private static final String INDEPENDENT = "IndependentLocksThroughput.twoClients";
    private static final String BASELINE = Contender.REDISSON_LOCK.name();
    private static final String SALE = "BeyondRedisSale.sale";
    private static final String LOCK_ALONE = "BeyondRedisSale.lockUnlock";
    private static final String ZOOKEEPER_READ = "ZooKeeperRoundTrip.checkExists";
    private static final String SCALE_OUT = "ScaleOut.twoClients";

    private final Results results;
    private final double rtt;

    private Tables(Results results) {
        this.results = results;
        this.rtt = results.roundTripMicros();
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: Tables RESULTS.json");
            System.exit(2);
        }
        Results results = Results.read(Path.of(args[0]));
        Tables tables = new Tables(results);
        // A run of a few benchmarks (Profile fair-lock) gets the tables of those it has.
        tables.roundTrip();
        if (has(results, "Uncontended.lockUnlock")) {
            tables.uncontended();
        }
        if (has(results, CONTENDED)) {
            tables.throughput(CONTENDED, "Contended throughput: one lock");
            tables.timePerAcquisition();
            tables.work();
            tables.fairness();
        }
        if (has(results, INDEPENDENT)) {
            tables.throughput(INDEPENDENT, "Independent locks: one lock per thread");
        }
        if (has(results, "Handoff.twoClients")) {
            tables.handoff();
        }
        if (has(results, "QuorumAcquire.acquire")) {
            tables.quorum();
        }
        if (has(results, SALE)) {
            tables.beyondRedis();
        }
        if (has(results, SCALE_OUT)) {
            tables.scaleOut();
        }
    }

    private static boolean has(Results results, String benchmark) {
        return !results.of(benchmark).isEmpty();
    }

    private void roundTrip() {
        String each = results.of("RoundTrip.ping").stream()
                .map(ping -> number(ping.primary().p50()) + " µs (mean " + number(ping.primary().score()) + ")")
                .collect(Collectors.joining(", then "));
        System.out.printf("RTT, one PING through a pooled Jedis client, median: %s; RTT below is their average, %s µs.%n%n",
                each, number(rtt));
    }

    private void uncontended() {
        heading("Uncontended lock() + unlock()");
        headerRow("contender", "median µs", "median / RTT", "median, v1's = 2", "mean µs", "mean / RTT",
                "median / RLock's", "script calls", "other requests", "commands");
        Run baseline = results.get("Uncontended.lockUnlock", "contender", BASELINE, 1);
        // v1 sends exactly two plain commands (SET, DEL) through the same client, in the neighbouring
        // forks: the tightest two-round-trip reference when the round trip itself drifts.
        Run twoRequests = results.get("Uncontended.lockUnlock", "contender", Contender.V1_SETNX.name(), 1);
        for (Contender contender : Contender.values()) {
            Run run = results.get("Uncontended.lockUnlock", "contender", contender.name(), 1);
            row(contender.label(), number(run.primary().p50()), ratio(run.primary().p50() / rtt),
                    number(2 * run.primary().p50() / twoRequests.primary().p50()),
                    number(run.primary().score()), ratio(run.primary().score() / rtt),
                    ratio(run.primary().p50() / baseline.primary().p50()),
                    number(run.perAcquisition("scriptCalls")), number(otherRequests(run)),
                    number(run.perAcquisition("commands")));
        }
        System.out.println();
    }

    private void throughput(String benchmark, String title) {
        perThreads(title + ", acquisitions per second (and as a multiple of Redisson RLock's at the same threads)",
                benchmark, (run, threads) -> number(run.primary().score())
                        + results.find(benchmark, "contender", BASELINE, threads)
                                .map(b -> " (" + ratio(run.primary().score() / b.primary().score()) + ")").orElse(""));
    }

    private void timePerAcquisition() {
        perThreads("Contended: wall time per acquisition in RTTs (1 s / throughput / RTT)", CONTENDED,
                (run, threads) -> ratio(1e6 / run.primary().score() / rtt));
    }

    private void work() {
        perThreads("Contended: Redis work per acquisition, script calls / other requests / all commands", CONTENDED,
                (run, threads) -> number(run.perAcquisition("scriptCalls")) + " / " + number(otherRequests(run))
                        + " / " + number(run.perAcquisition("commands")));
    }

    /** A table of {@code benchmark}: a row per contender, a column per thread count, {@code cell} in each. */
    private void perThreads(String title, String benchmark, BiFunction<Run, Integer, String> cell) {
        heading(title);
        List<Integer> threads = results.threads(benchmark);
        headerRow(threadColumns(threads));
        for (Contender contender : Contender.values()) {
            String[] cells = cells(contender, threads.size());
            boolean measured = false;
            for (int i = 0; i < threads.size(); i++) {
                int count = threads.get(i);
                Optional<Run> run = results.find(benchmark, "contender", contender.name(), count);
                cells[i + 1] = run.map(r -> cell.apply(r, count)).orElse("");
                measured |= run.isPresent();
            }
            if (measured) {
                row(cells);
            }
        }
        System.out.println();
    }

    private void fairness() {
        int most = results.threads(CONTENDED).get(results.threads(CONTENDED).size() - 1);
        heading("Contended at " + most + " threads: shares of the acquisitions (a fair lock gives one thread "
                + percent(1.0 / most) + ")");
        headerRow("contender", "client A", "client B", "busiest thread");
        for (Contender contender : Contender.values()) {
            results.find(CONTENDED, "contender", contender.name(), most).ifPresent(run -> {
                double a = run.secondary("clientA").score();
                double b = run.secondary("clientB").score();
                row(contender.label(), percent(a / (a + b)), percent(b / (a + b)),
                        percent(run.perAcquisition("busiestThreadAcquisitions")));
            });
        }
        System.out.println();
    }

    private void handoff() {
        heading("Handoff: from the holder's unlock() call to the waiter's return from lock()");
        headerRow("contender", "median ms", "p90 ms", "mean ms", "median / RLock's", "median / RTT");
        Run baseline = results.get("Handoff.twoClients", "contender", BASELINE, 2);
        for (Contender contender : Contender.values()) {
            results.find("Handoff.twoClients", "contender", contender.name(), 2).ifPresent(run ->
                    row(contender.label(), number(run.primary().p50() / 1000), number(run.primary().p90() / 1000),
                            number(run.primary().score() / 1000), ratio(run.primary().p50() / baseline.primary().p50()),
                            number(run.primary().p50() / rtt)));
        }
        System.out.println();
    }

    private void quorum() {
        heading("v6: lock() over N independent masters, median µs (mean)");
        headerRow("contender", "1 node", "3 nodes", "5 nodes", "5 / 1", "5, one stalled", "stalled − healthy",
                "5 nodes / Redisson's", "5 nodes / RTT");
        for (QuorumContender contender : QuorumContender.values()) {
            Run one = quorumRun(contender, "1");
            Run five = quorumRun(contender, "5");
            Optional<Run> stalled = results.of("QuorumAcquire.acquireWithOneNodeStalled").stream()
                    .filter(r -> r.param("contender").equals(contender.name())).findFirst();
            QuorumContender redisson = contender.needsEveryNode()
                    ? QuorumContender.REDISSON_MULTILOCK : QuorumContender.REDISSON_REDLOCK;
            row(contender.label(), latency(one), latency(quorumRun(contender, "3")), latency(five),
                    ratio(five.primary().p50() / one.primary().p50()),
                    stalled.map(Tables::latency).orElse("unavailable"),
                    stalled.map(s -> number((s.primary().p50() - five.primary().p50()) / 1000) + " ms").orElse(""),
                    ratio(five.primary().p50() / quorumRun(redisson, "5").primary().p50()),
                    ratio(five.primary().p50() / rtt));
        }
        List<Run> floor = results.of("FanOutRoundTrip.pingEvery");
        String[] cells = {"floor: one PING to every node at once", "", "", "", "", "", "", "", ""};
        for (int i = 0; i < floor.size(); i++) {
            cells[i + 1] = latency(floor.get(i));
        }
        cells[4] = ratio(floor.get(floor.size() - 1).primary().p50() / floor.get(0).primary().p50());
        row(cells);
        System.out.printf("%nNode timeout (Lockstep's default, given to Redisson's clients too): %d ms.%n%n",
                LockOptions.defaults().nodeTimeout().toMillis());
    }

    private void beyondRedis() {
        heading("Beyond Redis, one thread: a sale (lock, token, fenced read, fenced write, unlock; with no lock, "
                + "read and write-if-version), each lock alone, and the round trips they are read in");
        Optional<Run> zooKeeperRead = results.of(ZOOKEEPER_READ).stream().findFirst();
        headerRow("contender", "what", "median µs", "mean µs", "median / PING", "mean / PING",
                "median / ZooKeeper read", "mean / ZooKeeper read");
        for (BeyondRedisSale.Contender contender : BeyondRedisSale.Contender.values()) {
            results.find(SALE, "contender", contender.name(), 1)
                    .ifPresent(run -> beyondRedisRow(contender.label(), "sale", run, zooKeeperRead));
        }
        for (BeyondRedisSale.Contender contender : BeyondRedisSale.Contender.values()) {
            results.find(LOCK_ALONE, "contender", contender.name(), 1)
                    .ifPresent(run -> beyondRedisRow(contender.label(), "lock, token, unlock", run, zooKeeperRead));
        }
        results.of("RoundTrip.ping").forEach(run -> beyondRedisRow("Redis", "PING", run, zooKeeperRead));
        zooKeeperRead.ifPresent(run -> beyondRedisRow("ZooKeeper", "exists(\"/\")", run, zooKeeperRead));
        System.out.println();
        for (BeyondRedisSale.Contender contender : BeyondRedisSale.Contender.values()) {
            results.find(LOCK_ALONE, "contender", contender.name(), 1).ifPresent(alone -> {
                Run sale = results.get(SALE, "contender", contender.name(), 1);
                double table = sale.primary().p50() - alone.primary().p50();
                System.out.printf("%s: the table's part of the median sale, %s µs (%s)%n", contender.label(),
                        number(table), percent(table / sale.primary().p50()));
            });
        }
        System.out.println();
    }

    private void scaleOut() {
        heading("Scale-out: 1,000 independent locks, 32 threads over two clients, one master or a Cluster");
        headerRow("contender", "ground", "operations/s", "/ PING floor's", "/ one master's", "round trips", "commands",
                "relayed publishes", "CPU µs per op: master 1 / 2 / 3", "busiest master's ceiling, ops/s");
        for (ScaleOutGround.Contender contender : ScaleOutGround.Contender.values()) {
            Run one = scaleOutRun(contender, ScaleOutGround.Ground.ONE_MASTER);
            for (ScaleOutGround.Ground ground : ScaleOutGround.Ground.values()) {
                Run run = scaleOutRun(contender, ground);
                Run floor = scaleOutRun(ScaleOutGround.Contender.PING_FLOOR, ground);
                double[] cpu = new double[ground.masters()];
                for (int master = 0; master < cpu.length; master++) {
                    cpu[master] = run.perAcquisition("cpuMaster" + (master + 1));
                }
                double busiest = Arrays.stream(cpu).max().orElseThrow();
                row(contender.label(), ground.label(), number(run.primary().score()),
                        ratio(run.primary().score() / floor.primary().score()),
                        ratio(run.primary().score() / one.primary().score()),
                        number(run.perAcquisition("roundTrips")), number(run.perAcquisition("commands")),
                        number(run.perAcquisition("relayedPublishes")),
                        Arrays.stream(cpu).mapToObj(Tables::number).collect(Collectors.joining(" / ")),
                        number(1e6 / busiest));
            }
        }
        System.out.println();
        System.out.println("Ceiling: the operations per second at which the busiest master would use a whole core, "
                + "at the processor time per operation measured here.");
        System.out.println();
    }

    private Run scaleOutRun(ScaleOutGround.Contender contender, ScaleOutGround.Ground ground) {
        return results.of(SCALE_OUT).stream()
                .filter(r -> r.param("contender").equals(contender.name()) && r.param("ground").equals(ground.name()))
                .findFirst().orElseThrow();
    }

    private void beyondRedisRow(String contender, String what, Run run, Optional<Run> zooKeeperRead) {
        row(contender, what, number(run.primary().p50()), number(run.primary().score()),
                ratio(run.primary().p50() / rtt), ratio(run.primary().score() / rtt),
                zooKeeperRead.map(read -> ratio(run.primary().p50() / read.primary().p50())).orElse(""),
                zooKeeperRead.map(read -> ratio(run.primary().score() / read.primary().score())).orElse(""));
    }

    private Run quorumRun(QuorumContender contender, String nodes) {
        return results.of("QuorumAcquire.acquire").stream()
                .filter(r -> r.param("contender").equals(contender.name()) && r.param("nodes").equals(nodes))
                .findFirst().orElseThrow();
    }

    /** Requests that were not script calls: SET and DEL in v1, SUBSCRIBE, Redisson's latch DEL. */
    private static double otherRequests(Run run) {
        return run.perAcquisition("roundTrips") - run.perAcquisition("scriptCalls");
    }

    private static String latency(Run run) {
        return number(run.primary().p50()) + " (" + number(run.primary().score()) + ")";
    }

    private static String[] threadColumns(List<Integer> threads) {
        String[] cells = new String[threads.size() + 1];
        cells[0] = "contender";
        for (int i = 0; i < threads.size(); i++) {
            cells[i + 1] = threads.get(i) + (threads.get(i) == 1 ? " thread" : " threads");
        }
        return cells;
    }

    private static String[] cells(Contender contender, int columns) {
        String[] cells = new String[columns + 1];
        cells[0] = contender.label();
        return cells;
    }

    private static void heading(String text) {
        System.out.println("**" + text + "**");
        System.out.println();
    }

    private static void headerRow(String... cells) {
        row(cells);
        System.out.println("|" + List.of(cells).stream().map(c -> "---").collect(Collectors.joining("|")) + "|");
    }

    private static void row(String... cells) {
        System.out.println("| " + String.join(" | ", cells) + " |");
    }

    /** Three significant digits at most, thousands grouped: 8,080 / 17.5 / 0.85. */
    private static String number(double value) {
        if (Math.abs(value) >= 100) {
            return String.format(Locale.ROOT, "%,.0f", value);
        }
        return Math.abs(value) >= 10 ? String.format(Locale.ROOT, "%.1f", value) : String.format(Locale.ROOT, "%.2f", value);
    }

    private static String ratio(double value) {
        return number(value) + "×";
    }

    private static String percent(double share) {
        return String.format(Locale.ROOT, "%.0f%%", share * 100);
    }
}
