package dev.lockstep.bench;

import dev.lockstep.testkit.fixture.RedisBinary;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.zookeeper.Version;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatFactory;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Runs every benchmark in one go, sweeping the thread counts JMH's command line cannot sweep in
 * one run, writes all results to one JMH JSON file, and draws the charts from it. Run from the
 * repository root: {@code java -cp bench/target/benchmarks.jar dev.lockstep.bench.Profile quick}
 * writes {@code bench/results/quick.json} and {@code docs/img/*.png}.
 */
public final class Profile {

    /** Threads of the contended benchmarks, half of them in each client. */
    private static final int[] THREADS = {1, 2, 4, 8, 16};

    /** How much time each measurement gets: a quick look, or figures to publish. */
    private enum Kind {
        /** About seven minutes on two cores: one fork, one short warm-up, two short measurements. */
        QUICK(1, 1, TimeValue.seconds(1), 2, TimeValue.seconds(1), TimeValue.seconds(3), 3, TimeValue.seconds(2),
                new int[] {2, 16}),
        /** About seventy minutes: two forks, longer warm-up and five measurements, every thread count. */
        FULL(2, 2, TimeValue.seconds(2), 5, TimeValue.seconds(2), TimeValue.seconds(15), 5, TimeValue.seconds(2), THREADS);

        private final int forks;
        private final int warmups;
        private final TimeValue warmupTime;
        private final int measurements;
        private final TimeValue measurementTime;
        /** A pass of {@link Handoff} includes a hold of up to a spin interval, so it needs longer to gather samples. */
        private final TimeValue handoffTime;
        /**
         * v6 latency over N nodes is a ratio of figures from different forks, and a round trip's
         * cost drifts between them: longer measurements let less of the drift into the ratio.
         */
        private final int nodesMeasurements;
        private final TimeValue nodesMeasurementTime;
        private final int[] independentThreads;

        Kind(int forks, int warmups, TimeValue warmupTime, int measurements, TimeValue measurementTime,
             TimeValue handoffTime, int nodesMeasurements, TimeValue nodesMeasurementTime, int[] independentThreads) {
            this.forks = forks;
            this.warmups = warmups;
            this.warmupTime = warmupTime;
            this.measurements = measurements;
            this.measurementTime = measurementTime;
            this.handoffTime = handoffTime;
            this.nodesMeasurements = nodesMeasurements;
            this.nodesMeasurementTime = nodesMeasurementTime;
            this.independentThreads = independentThreads;
        }

        ChainedOptionsBuilder options(Class<?> benchmark, String method) {
            return new OptionsBuilder()
                    .include("^" + Pattern.quote(benchmark.getName() + "." + method) + "$")
                    .forks(forks)
                    .warmupIterations(warmups)
                    .warmupTime(warmupTime)
                    .measurementIterations(measurements)
                    .measurementTime(measurementTime)
                    .shouldFailOnError(true);
        }

        /** {@link #options} for a latency measured over 1, 3 and 5 nodes. */
        ChainedOptionsBuilder overNodes(Class<?> benchmark, String method) {
            return options(benchmark, method).measurementIterations(nodesMeasurements).measurementTime(nodesMeasurementTime);
        }
    }

    private Profile() {
    }

    public static void main(String[] args) throws RunnerException, IOException {
        if (args.length != 1) {
            System.err.println("usage: Profile quick|full|fair-lock|several-names|virtual-threads|beyond-redis|quorum-floor|pairs|scale-out   (from the repository root)");
            System.exit(2);
        }
        if (args[0].equals("fair-lock")) {
            fairLock();
            return;
        }
        if (args[0].equals("several-names")) {
            severalNames();
            return;
        }
        if (args[0].equals("virtual-threads")) {
            virtualThreads();
            return;
        }
        if (args[0].equals("beyond-redis")) {
            beyondRedis();
            return;
        }
        if (args[0].equals("quorum-floor")) {
            quorumFloor();
            return;
        }
        if (args[0].equals("pairs")) {
            pairs();
            return;
        }
        if (args[0].equals("scale-out")) {
            scaleOut();
            return;
        }
        Kind kind = Kind.valueOf(args[0].toUpperCase(Locale.ROOT));
        String name = kind.name().toLowerCase(Locale.ROOT);
        Path json = Path.of("bench", "results", name + ".json");
        Path charts = Path.of("docs", "img");
        long started = System.nanoTime();
        System.out.println(machine());

        List<RunResult> results = new ArrayList<>();
        // Latencies are read in round trips, and on a virtual machine a round trip's cost drifts
        // with what else runs: the round trip is measured right before and right after them.
        results.addAll(run(kind.options(RoundTrip.class, "ping")));
        results.addAll(run(kind.options(Uncontended.class, "lockUnlock")));
        results.addAll(run(kind.overNodes(FanOutRoundTrip.class, "pingEvery")));
        results.addAll(run(kind.overNodes(QuorumAcquire.class, "acquire")));
        results.addAll(run(kind.options(RoundTrip.class, "ping")));
        results.addAll(run(kind.options(QuorumAcquire.class, "acquireWithOneNodeStalled")));
        for (int threads : THREADS) {
            results.addAll(run(kind.options(ContendedThroughput.class, "twoClients").threadGroups(split(threads))));
        }
        for (int threads : kind.independentThreads) {
            results.addAll(run(kind.options(IndependentLocksThroughput.class, "twoClients").threadGroups(split(threads))));
        }
        results.addAll(run(kind.options(Handoff.class, "twoClients").measurementTime(kind.handoffTime)));

        write(json, results);
        Charts.draw(Results.read(json), charts);
        System.out.println(machine());
        System.out.printf("%s profile: %s and charts in %s after %s%n", name, json, charts,
                Duration.ofNanos(System.nanoTime() - started).withNanos(0));
    }

    /**
     * The fair lock beside stage 5 and Redisson's RLock and RFairLock, in one run of about six
     * minutes: contended throughput over 1 to 16 threads (three 2 s measurements each), and the
     * handoff. Writes {@code bench/results/fair-lock.json} and its chart; {@link Tables} prints it.
     */
    private static void fairLock() throws RunnerException, IOException {
        String[] contenders = Stream.of(Contender.V5_PUBSUB_RETRY, Contender.FAIR_LOCK, Contender.REDISSON_LOCK,
                Contender.REDISSON_FAIR_LOCK).map(Contender::name).toArray(String[]::new);
        Kind kind = Kind.QUICK;
        Path json = Path.of("bench", "results", "fair-lock.json");
        long started = System.nanoTime();
        System.out.println(machine());
        List<RunResult> results = new ArrayList<>(run(kind.options(RoundTrip.class, "ping")));
        for (int threads : THREADS) {
            results.addAll(run(kind.options(ContendedThroughput.class, "twoClients").param("contender", contenders)
                    .measurementIterations(3).measurementTime(TimeValue.seconds(2)).threadGroups(split(threads))));
        }
        results.addAll(run(kind.options(Handoff.class, "twoClients").param("contender", contenders)
                .measurementTime(kind.handoffTime)));
        write(json, results);
        Charts.drawContended(Results.read(json), Path.of("docs", "img"), "fair-lock-throughput",
                "One lock, threads split over two clients: the fair lock");
        System.out.println(machine());
        System.out.printf("fair-lock run: %s and docs/img/fair-lock-throughput.png after %s%n", json, Duration.ofNanos(System.nanoTime() - started).withNanos(0));
    }

    /**
     * Each lock beside its Redisson twin with 16 threads, in about twelve minutes: stage 5 and
     * {@code RLock}, the fair lock and {@code RFairLock}, stage 7 and {@code RFencedLock} on one
     * contended lock, and the read-write lock and {@code RReadWriteLock} at nine reads to one write.
     * Each twice: the threads in one client, then over two (8 in each, as two application instances
     * would be). Three forks of each, on the Redis this machine has
     * ({@code -Dlockstep.redis=/path/to/redis-server} names another). Writes
     * {@code bench/results/pairs-one-client-redis-MAJOR.MINOR.json} and
     * {@code bench/results/pairs-redis-MAJOR.MINOR.json}, so runs on two Redis versions sit side by side.
     */
    private static void pairs() throws RunnerException, IOException {
        long started = System.nanoTime();
        System.out.println(machine());
        double version = RedisBinary.get().majorMinor();
        pairs(new int[] {16, 0}, Path.of("bench", "results", "pairs-one-client-redis-" + version + ".json"));
        pairs(split(16), Path.of("bench", "results", "pairs-redis-" + version + ".json"));
        System.out.println(machine());
        System.out.printf("pairs run: after %s%n", Duration.ofNanos(System.nanoTime() - started).withNanos(0));
    }

    /** The pairs with 16 threads in the two clients as {@code threadGroups} says; writes {@code json}. */
    private static void pairs(int[] threadGroups, Path json) throws RunnerException, IOException {
        String[] contenders = Stream.of(Contender.V5_PUBSUB_RETRY, Contender.REDISSON_LOCK, Contender.FAIR_LOCK,
                Contender.REDISSON_FAIR_LOCK, Contender.V7_FENCING, Contender.REDISSON_FENCED_LOCK)
                .map(Contender::name).toArray(String[]::new);
        String[] readWrite = Stream.of(ReadWriteMix.Contender.READ_WRITE_LOCK, ReadWriteMix.Contender.REDISSON_READ_WRITE_LOCK)
                .map(Enum::name).toArray(String[]::new);
        List<RunResult> results = new ArrayList<>(run(Kind.QUICK.options(RoundTrip.class, "ping").forks(3)));
        results.addAll(run(Kind.QUICK.options(ContendedThroughput.class, "twoClients").forks(3).param("contender", contenders)
                .measurementIterations(3).measurementTime(TimeValue.seconds(2)).threadGroups(threadGroups)));
        results.addAll(run(Kind.QUICK.options(ReadWriteMix.class, "ninetyTen").forks(3).param("contender", readWrite)
                .measurementIterations(3).measurementTime(TimeValue.seconds(2)).threadGroups(threadGroups)));
        write(json, results);
        System.out.println("pairs: " + json);
    }

    /**
     * Many independent locks on one Redis master and on a 3-master Redis Cluster ({@link ScaleOut}):
     * stage 5, Redisson's RLock and two floors (one PING, or one PUBLISH, per operation), 32 threads
     * over two clients, each master's commands and processor time beside them, in about eight
     * minutes. Three forks of each, so drift between forks is in every figure, and a PING round
     * trip first. Writes {@code bench/results/scale-out.json} and its two charts.
     */
    private static void scaleOut() throws RunnerException, IOException {
        Path json = Path.of("bench", "results", "scale-out.json");
        long started = System.nanoTime();
        System.out.println(machine());
        List<RunResult> results = new ArrayList<>(run(Kind.QUICK.options(RoundTrip.class, "ping")));
        // 8 s of warm-up: with 32 threads on two cores the JIT compiler gets little time, and Redisson's
        // throughput was still climbing 13 s into a fork in a run with 4 s.
        results.addAll(run(Kind.QUICK.options(ScaleOut.class, "twoClients").forks(3).warmupIterations(4)
                .warmupTime(TimeValue.seconds(2)).measurementIterations(3).measurementTime(TimeValue.seconds(2))
                .threadGroups(split(32))));
        write(json, results);
        Charts.drawScaleOut(Results.read(json), Path.of("docs", "img"));
        System.out.println(machine());
        System.out.printf("scale-out run: %s and docs/img/scale-out-*.png after %s%n", json,
                Duration.ofNanos(System.nanoTime() - started).withNanos(0));
    }

    /**
     * Stage 6 over 1 and 5 nodes beside two floors of a parallel round, in about three minutes: a
     * {@code PING} to every node, and stage 6's own lock script to every node, both on connections
     * of their own with nothing in between. Where the machine has fewer cores than servers, the
     * servers' own work waits for a core, so each run also counts the servers' processor time
     * ({@link ServerCpu}). Three forks of each, so drift between forks is in every figure. The
     * warm-up outlasts the JIT compiler's first seconds: while it keeps the second core awake, a
     * reply wakes a thread at once, and a one-node round ran at a third of its steady time. Writes
     * {@code bench/results/quorum-floor.json}.
     */
    private static void quorumFloor() throws RunnerException, IOException {
        Path json = Path.of("bench", "results", "quorum-floor.json");
        long started = System.nanoTime();
        System.out.println(machine());
        List<RunResult> results = new ArrayList<>();
        for (String floor : List.of("pingEvery", "scriptEvery")) {
            results.addAll(run(quorumFloorOptions(FanOutRoundTrip.class, floor)));
        }
        results.addAll(run(quorumFloorOptions(QuorumAcquire.class, "acquire")
                .param("contender", QuorumContender.V6_REDLOCK.name(), QuorumContender.V6_MULTILOCK.name())));
        write(json, results);
        System.out.println(machine());
        System.out.printf("quorum-floor run: %s after %s%n", json, Duration.ofNanos(System.nanoTime() - started).withNanos(0));
    }

    private static ChainedOptionsBuilder quorumFloorOptions(Class<?> benchmark, String method) {
        return Kind.QUICK.overNodes(benchmark, method).forks(3).warmupIterations(3).warmupTime(TimeValue.seconds(2))
                .param("nodes", "1", "5");
    }

    /**
     * Several names at once: {@link SeveralNames}' three contenders uncontended and under contention,
     * beside a PING round trip, in about five minutes. Writes {@code bench/results/several-names.json}
     * and its two charts.
     */
    private static void severalNames() throws RunnerException, IOException {
        Kind kind = Kind.QUICK;
        Path json = Path.of("bench", "results", "several-names.json");
        long started = System.nanoTime();
        System.out.println(machine());
        List<RunResult> results = new ArrayList<>(run(kind.options(RoundTrip.class, "ping")));
        results.addAll(run(kind.options(SeveralNames.class, "lockUnlock").measurementIterations(3)));
        results.addAll(run(kind.options(SeveralNames.class, "contended").measurementIterations(3)
                .measurementTime(TimeValue.seconds(5))));
        write(json, results);
        Charts.drawSeveralNames(Results.read(json), Path.of("docs", "img"));
        System.out.println(machine());
        System.out.printf("several-names run: %s and docs/img/several-names-*.png after %s%n", json,
                Duration.ofNanos(System.nanoTime() - started).withNanos(0));
    }

    /**
     * Waves of 1,000 and 10,000 virtual threads on stage 5 and Redisson's RLock, on one lock and over
     * 1,000, beside a PING round trip: one warm-up and three measured waves each. A wave that fails
     * (Redisson's subscriptions time out at 10,000 threads over 1,000 locks) is reported in the log and
     * left out of the results, the others kept. Needs JDK 21 or later.
     * Writes {@code bench/results/virtual-threads.json}; {@link Tables} prints it.
     */
    private static void virtualThreads() throws RunnerException, IOException {
        if (Runtime.version().feature() < 21) {
            throw new IllegalStateException("the virtual-threads profile needs JDK 21 or later, not " + Runtime.version());
        }
        Path json = Path.of("bench", "results", "virtual-threads.json");
        long started = System.nanoTime();
        System.out.println(machine());
        List<RunResult> results = new ArrayList<>(run(Kind.QUICK.options(RoundTrip.class, "ping")));
        results.addAll(run(new OptionsBuilder().include("^" + Pattern.quote(VirtualThreadWaves.class.getName() + ".wave") + "$")
                .forks(1).warmupIterations(1).measurementIterations(3).shouldFailOnError(false)));
        write(json, results);
        System.out.println(machine());
        System.out.printf("virtual-threads run: %s after %s%n", json, Duration.ofNanos(System.nanoTime() - started).withNanos(0));
    }

    /**
     * What a sale costs beside stage 7: {@link BeyondRedisSale}'s three sales and its two locks alone,
     * beside a PING and a ZooKeeper read round trip, one fork each, five 2 s measurements, in about
     * four and a half minutes. Writes {@code bench/results/beyond-redis.json}; {@link Tables} prints it.
     */
    private static void beyondRedis() throws RunnerException, IOException {
        Path json = Path.of("bench", "results", "beyond-redis.json");
        long started = System.nanoTime();
        String machine = machine() + ", ZooKeeper " + Version.getFullVersion();
        System.out.println(machine);
        List<RunResult> results = new ArrayList<>();
        results.addAll(run(beyondRedisOptions(RoundTrip.class, "ping")));
        results.addAll(run(beyondRedisOptions(ZooKeeperRoundTrip.class, "checkExists")));
        // The table's code (H2's server and driver, both in this JVM) keeps getting faster over the first
        // several thousand sales, and a ZooKeeper sale runs only a few hundred a second: 40 s of warm-up.
        results.addAll(run(beyondRedisOptions(BeyondRedisSale.class, "sale").warmupIterations(10)
                .warmupTime(TimeValue.seconds(4))));
        results.addAll(run(beyondRedisOptions(BeyondRedisSale.class, "lockUnlock")));
        write(json, results);
        System.out.println(machine);
        System.out.printf("beyond-redis run: %s after %s%n", json, Duration.ofNanos(System.nanoTime() - started).withNanos(0));
    }

    /** 15 s of warm-up: the ZooKeeper lock alone steadies after about 10 s (its servers' code compiles too). */
    private static ChainedOptionsBuilder beyondRedisOptions(Class<?> benchmark, String method) {
        return Kind.QUICK.options(benchmark, method).warmupIterations(5).warmupTime(TimeValue.seconds(3))
                .measurementIterations(5).measurementTime(TimeValue.seconds(2));
    }

    /** {@code threads} over clients A and B, A taking the odd one. */
    private static int[] split(int threads) {
        return new int[] {threads - threads / 2, threads / 2};
    }

    /** Writes {@code results} to {@code json} in JMH's JSON format, making its folder if need be. */
    private static void write(Path json, Collection<RunResult> results) throws IOException {
        Files.createDirectories(json.getParent());
        ResultFormatFactory.getInstance(ResultFormatType.JSON, json.toString()).writeOut(results);
    }

    private static Collection<RunResult> run(ChainedOptionsBuilder options) throws RunnerException {
        return new Runner(options.build()).run();
    }

    /** What the figures were measured on, for docs/performance.md. */
    private static String machine() {
        String url = System.getProperty(RedisServers.URL_PROPERTY, "");
        String redis = url.isBlank() ? "redis-server " + RedisBinary.get().version() + " (" + RedisBinary.get().source() + ")"
                : "the servers at " + url;
        return String.format("machine: %d cores, %s %s (%s), %s", Runtime.getRuntime().availableProcessors(),
                System.getProperty("java.vm.name"), System.getProperty("java.version"), System.getProperty("os.name"),
                redis);
    }
}
