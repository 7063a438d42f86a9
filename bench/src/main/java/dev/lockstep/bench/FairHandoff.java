package dev.lockstep.bench;

import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.lockstep.LockOptions;
import dev.lockstep.bench.HandoffTimeline.Segment;
import dev.lockstep.fair.FairLocks;
import dev.lockstep.testkit.fixture.RedisBinary;
import dev.lockstep.v3.internal.RedissonLayout;
import com.sun.management.OperatingSystemMXBean;
import java.io.Reader;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.Lock;
import java.util.function.Function;
import jdk.jfr.Recording;
import org.openjdk.jmh.infra.Blackhole;
import org.redisson.api.RedissonClient;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPubSub;
import redis.clients.jedis.RedisClient;

/**
 * Where one fair-lock handoff's time goes. Sixteen threads over two clients take one fair lock
 * over and over, as {@code ContendedThroughput} does, and a flight recording of a few seconds
 * holds, on one clock, each thread's socket reads and writes and parks, the moments the threads
 * mark themselves (lock asked, lock returned, unlock called, unlock returned) and when a separate
 * subscriber got each release message. {@link HandoffTimeline} cuts every handoff into segments;
 * their median and 90th percentile are printed and merged into a JMH-shaped results file under the
 * run's label, so runs (of two builds, say) sit side by side, and the docs quote them as they quote
 * JMH's. Not a JMH benchmark: JMH's threads would be the same, its harness would not see inside a
 * handoff.
 *
 * <pre>{@code java -cp bench/target/benchmarks.jar dev.lockstep.bench.FairHandoff LABEL [fair-lock|redisson] [results.json]}</pre>
 *
 * Writes {@code bench/results/fair-handoff.json} by default. Redisson's handoff gets the marks'
 * segments only: its threads hand their requests to Netty's, so a caller's own socket events say
 * nothing. {@code -Dfairhandoff.keep=FILE.jfr} keeps the recording, for {@code jfr print} or JMC.
 */
public final class FairHandoff {

    private static final int THREADS_PER_CLIENT = 8;
    private static final Duration WARM_UP = Duration.ofSeconds(6);
    private static final Duration WINDOW = Duration.ofSeconds(3);
    private static final Duration SETTLE = Duration.ofSeconds(2);
    private static final Duration PING_EVERY = Duration.ofMillis(5);
    private static final String BENCHMARK = "dev.lockstep.bench.FairHandoff.";

    /** One client identity: its locks, its owners' names, and the thread that reads its release messages. */
    private record Client(Function<String, Lock> locks, String id, String subscriberThread, AutoCloseable closing) {
    }

    private FairHandoff() {
    }

    /** Runs the measurement and merges its figures into the results file. */
    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            System.err.println("usage: FairHandoff LABEL [fair-lock|redisson] [results.json]   (from the repository root)");
            System.exit(2);
        }
        String label = args[0];
        boolean redisson = args.length > 1 && args[1].equals("redisson");
        String lockKind = redisson ? Contender.REDISSON_FAIR_LOCK.name() : Contender.FAIR_LOCK.name();
        Path json = Path.of(args.length > 2 ? args[2] : "bench/results/fair-handoff.json");
        String name = "fair-handoff-" + UUID.randomUUID().toString().substring(0, 8);
        String channelPrefix = RedissonLayout.releaseChannel(name) + ":";
        Path jfr = Files.createTempFile("fair-handoff", ".jfr");
        String machine = String.format("%d cores, %s %s, redis-server %s", Runtime.getRuntime().availableProcessors(),
                System.getProperty("java.vm.name"), System.getProperty("java.version"), RedisBinary.get().version());
        System.out.println("FairHandoff: " + lockKind + " (" + label + "), 16 threads over two clients; " + machine);

        Run run = run(redisson, name, channelPrefix, jfr);
        HandoffTimeline.Cut cut = HandoffTimeline.read(jfr).cut(
                owner -> run.clients().stream().filter(c -> owner.startsWith(c.id() + ":")).findFirst().map(Client::subscriberThread).orElse(""),
                owner -> HandoffTimeline.messageBytes(channelPrefix + owner, RedissonLayout.RELEASED));
        String keep = System.getProperty("fairhandoff.keep", "");
        if (keep.isBlank()) {
            Files.delete(jfr);
        } else {
            Files.move(jfr, Path.of(keep), StandardCopyOption.REPLACE_EXISTING);
        }
        print(lockKind, label, run, cut);
        merge(json, entries(label, lockKind, machine, run, cut));
        System.out.println("FairHandoff: merged into " + json);
    }

    /** What one run measured: its clients (closed by now), and {@code PING}s and windows of the load. */
    private record Run(List<Client> clients, List<Double> idlePings, Window unrecorded, Window recorded) {
    }

    /**
     * Starts a server and two clients, then the load; measures a window unrecorded and one recorded
     * into {@code jfr}, and stops everything.
     */
    private static Run run(boolean redisson, String name, String channelPrefix, Path jfr) throws Exception {
        List<Double> idlePings;
        Window unrecorded;
        Window recorded;
        List<Client> clients = new ArrayList<>();
        try (RedisServers servers = RedisServers.start(1); Jedis admin = new Jedis(servers.address(0))) {
            HostAndPort address = servers.address(0);
            for (int i = 0; i < 2; i++) {
                clients.add(redisson ? redisson(address) : lockstep(address));
            }
            try (Observer observer = new Observer(address, channelPrefix); Recording idle = new Recording()) {
                // JFR's own code runs and gets compiled from its first recording on, costing a core for
                // seconds on two: an empty recording through the warm-up takes that out of both windows.
                idle.start();
                idlePings = pingMicros(admin, System.nanoTime() + WINDOW.toNanos() / 3, Duration.ZERO);
                Load load = new Load(clients, name);
                TimeUnit.MILLISECONDS.sleep(WARM_UP.toMillis());
                unrecorded = Window.measure(load.acquisitions, servers, admin);
                try (Recording settling = recording(); Recording recording = recording()) {
                    // Enabling the socket events instruments the socket classes and recompiles their
                    // callers: a first recording absorbs that, so the measured one starts on a settled JVM.
                    settling.start();
                    TimeUnit.MILLISECONDS.sleep(SETTLE.toMillis());
                    recording.start();
                    recorded = Window.measure(load.acquisitions, servers, admin);
                    recording.stop();
                    recording.dump(jfr);
                }
                load.stop();
            } finally {
                for (Client client : clients) {
                    client.closing().close();
                }
            }
        }
        return new Run(clients, idlePings, unrecorded, recorded);
    }

    private static Recording recording() {
        Recording recording = new Recording();
        for (String event : List.of("jdk.SocketRead", "jdk.SocketWrite", "jdk.ThreadPark")) {
            recording.enable(event).withThreshold(Duration.ZERO).withoutStackTrace();
        }
        recording.enable(HandoffMark.class);
        return recording;
    }

    private static Client lockstep(HostAndPort address) {
        RedisClient redis = LockClient.jedis(address);
        FairLocks locks = new FairLocks(redis, LockOptions.defaults());
        return new Client(locks::get, locks.clientId(), "lockstep-subscriber-" + locks.clientId().substring(0, 8), () -> {
            locks.close();
            redis.close();
        });
    }

    private static Client redisson(HostAndPort address) {
        RedissonClient client = LockClient.redissonClient(address);
        return new Client(client::getFairLock, client.getId(), "", () -> client.shutdown(0, 5, TimeUnit.SECONDS));
    }

    /** The contending threads, eight per client, each marking what it does. */
    private static final class Load {

        private final LongAdder acquisitions = new LongAdder();
        private final List<Thread> threads = new ArrayList<>();
        private volatile boolean stopping;

        Load(List<Client> clients, String name) {
            for (int c = 0; c < clients.size(); c++) {
                Client client = clients.get(c);
                for (int t = 0; t < THREADS_PER_CLIENT; t++) {
                    Lock lock = client.locks().apply(name);
                    Thread thread = new Thread(() -> run(lock, client.id()), "fair-handoff-" + c + "-" + t);
                    threads.add(thread);
                    thread.start();
                }
            }
        }

        private void run(Lock lock, String clientId) {
            String owner = clientId + ":" + Thread.currentThread().getId();
            while (!stopping) {
                HandoffMark.mark(HandoffMark.ASKED, owner);
                lock.lock();
                HandoffMark.mark(HandoffMark.GRANTED, owner);
                try {
                    acquisitions.increment();
                    Blackhole.consumeCPU(ContendedThroughput.HOLD_TOKENS);
                } finally {
                    HandoffMark.mark(HandoffMark.RELEASE, owner);
                    lock.unlock();
                    HandoffMark.mark(HandoffMark.RELEASED, owner);
                }
            }
        }

        void stop() throws InterruptedException {
            stopping = true;
            for (Thread thread : threads) {
                thread.join();
            }
        }
    }

    /**
     * What the load did over one {@link #WINDOW}, in totals: acquisitions, the requests Redis read,
     * the commands it ran (inside scripts too), and the CPU time of this JVM and of the Redis server
     * in µs. On two cores, CPU time per acquisition bounds the throughput.
     */
    private record Window(double seconds, double acquisitions, double roundTrips, double commands, double javaCpuMicros,
                          double redisCpuMicros, List<Double> pings) {

        static Window measure(LongAdder acquisitions, RedisServers servers, Jedis admin) throws InterruptedException {
            OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
            ServerWork workBefore = servers.work();
            double redisBefore = redisCpuSeconds(admin);
            long javaBefore = os.getProcessCpuTime();
            long before = acquisitions.sum();
            long started = System.nanoTime();
            List<Double> pings = pingMicros(admin, started + WINDOW.toNanos(), PING_EVERY);
            double seconds = (System.nanoTime() - started) / 1e9;
            double taken = acquisitions.sum() - before;
            double javaCpu = (os.getProcessCpuTime() - javaBefore) / 1e3;
            double redisCpu = (redisCpuSeconds(admin) - redisBefore) * 1e6;
            ServerWork work = servers.work().minus(workBefore);
            return new Window(seconds, taken, work.roundTrips(), work.commands(), javaCpu, redisCpu, pings);
        }

        double perSecond() {
            return acquisitions / seconds;
        }

        double perAcquisition(double total) {
            return total / acquisitions;
        }

        /** The server's CPU time so far, user and system, from {@code INFO cpu}. */
        private static double redisCpuSeconds(Jedis admin) {
            double seconds = 0;
            for (String line : admin.info("cpu").split("\\r?\\n")) {
                if (line.startsWith("used_cpu_sys:") || line.startsWith("used_cpu_user:")) {
                    seconds += Double.parseDouble(line.substring(line.indexOf(':') + 1));
                }
            }
            return seconds;
        }
    }

    /**
     * Round trips of a {@code PING} on a connection of its own, in µs, one every {@code every} until
     * {@code untilNanos}: what a bare request costs at that moment, the unit the segments are read in.
     * Back to back ({@link Duration#ZERO}) on an idle server, as {@code RoundTrip.ping} measures it;
     * spaced under the load, so as not to add to it.
     */
    private static List<Double> pingMicros(Jedis admin, long untilNanos, Duration every) throws InterruptedException {
        List<Double> micros = new ArrayList<>();
        while (System.nanoTime() < untilNanos) {
            long sent = System.nanoTime();
            admin.ping();
            micros.add((System.nanoTime() - sent) / 1e3);
            TimeUnit.MILLISECONDS.sleep(every.toMillis());
        }
        return sorted(micros);
    }

    /** A connection that only listens to every waiter's channel of the lock, and marks each release message. */
    private static final class Observer implements AutoCloseable {

        private final Jedis jedis;
        private final JedisPubSub listener;
        private final Thread thread;

        Observer(HostAndPort address, String channelPrefix) throws InterruptedException {
            jedis = new Jedis(address);
            listener = new JedisPubSub() {
                @Override
                public void onPMessage(String pattern, String channel, String message) {
                    HandoffMark.mark(HandoffMark.OBSERVED, channel.substring(channelPrefix.length()));
                }
            };
            thread = new Thread(() -> jedis.psubscribe(listener, channelPrefix + "*"), "fair-handoff-observer");
            thread.setDaemon(true);
            thread.start();
            while (!listener.isSubscribed()) {
                TimeUnit.MILLISECONDS.sleep(10);
            }
        }

        @Override
        public void close() throws InterruptedException {
            listener.punsubscribe();
            thread.join(5_000);
            jedis.close();
        }
    }

    private static void print(String lockKind, String label, Run run, HandoffTimeline.Cut cut) {
        Window unrecorded = run.unrecorded();
        Window recorded = run.recorded();
        System.out.printf(Locale.ROOT, "%n%s (%s): %,.0f acquisitions/s unrecorded, %,.0f recorded; %d handoffs, "
                        + "%d dropped, %d release messages read alone, %d waiters not parked at the message%n",
                lockKind, label, unrecorded.perSecond(), recorded.perSecond(), cut.handoffs(), cut.dropped(),
                cut.exactMessages(), cut.waiterNotParked());
        System.out.printf(Locale.ROOT, "per acquisition, unrecorded: %.1f requests, %.1f commands, CPU %.0f µs in this JVM "
                        + "and %.0f µs in Redis%n", unrecorded.perAcquisition(unrecorded.roundTrips()),
                unrecorded.perAcquisition(unrecorded.commands()), unrecorded.perAcquisition(unrecorded.javaCpuMicros()),
                unrecorded.perAcquisition(unrecorded.redisCpuMicros()));
        System.out.printf(Locale.ROOT, "PING median: %.1f µs back to back before the load, %.1f µs under it, %.1f µs while recorded%n%n",
                percentile(run.idlePings(), 0.5), percentile(unrecorded.pings(), 0.5), percentile(recorded.pings(), 0.5));
        System.out.println("| segment | from | to | median µs | p90 µs | samples |");
        System.out.println("|---|---|---|---|---|---|");
        for (Segment segment : Segment.values()) {
            List<Double> samples = sorted(cut.samples().get(segment));
            if (!samples.isEmpty()) {
                System.out.printf(Locale.ROOT, "| %s | %s | %s | %.1f | %.1f | %d |%n", segment, segment.from, segment.to,
                        percentile(samples, 0.5), percentile(samples, 0.9), samples.size());
            }
        }
    }

    private static List<Double> sorted(List<Double> samples) {
        List<Double> sorted = new ArrayList<>(samples);
        sorted.sort(Double::compare);
        return sorted;
    }

    /** The nearest-rank percentile {@code p} (0 to 1) of sorted {@code samples}. */
    private static double percentile(List<Double> sorted, double p) {
        return sorted.get(Math.max(0, (int) Math.ceil(p * sorted.size()) - 1));
    }

    private static List<JsonObject> entries(String label, String lockKind, String machine, Run run, HandoffTimeline.Cut cut) {
        Window unrecorded = run.unrecorded();
        Window recorded = run.recorded();
        List<JsonObject> entries = new ArrayList<>();
        for (Segment segment : Segment.values()) {
            List<Double> samples = sorted(cut.samples().get(segment));
            if (samples.isEmpty()) {
                continue;
            }
            JsonObject entry = entry("segment", label, lockKind, machine, segment.from + " to " + segment.to);
            entry.getAsJsonObject("params").addProperty("segment", segment.name());
            double mean = samples.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
            entry.add("primaryMetric", metric(mean, samples, "us/op"));
            JsonObject secondary = new JsonObject();
            secondary.add("samples", single(samples.size(), "#"));
            entry.add("secondaryMetrics", secondary);
            entries.add(entry);
        }
        for (String window : List.of("unrecorded", "recorded")) {
            Window measured = window.equals("recorded") ? recorded : unrecorded;
            JsonObject entry = entry("throughput", label, lockKind, machine, "acquisitions per second over "
                    + WINDOW.toSeconds() + " s, " + window + "; totals over the window: acquisitions, requests, commands, "
                    + "CPU µs of the JVM and of Redis");
            entry.getAsJsonObject("params").addProperty("window", window);
            entry.add("primaryMetric", single(measured.perSecond(), "ops/s"));
            JsonObject totals = new JsonObject();
            totals.add("acquisitions", single(measured.acquisitions(), "#"));
            totals.add("roundTrips", single(measured.roundTrips(), "#"));
            totals.add("commands", single(measured.commands(), "#"));
            totals.add("javaCpu", single(measured.javaCpuMicros(), "us"));
            totals.add("redisCpu", single(measured.redisCpuMicros(), "us"));
            entry.add("secondaryMetrics", totals);
            entries.add(entry);
        }
        for (String window : List.of("idle", "unrecorded", "recorded")) {
            List<Double> pings = window.equals("idle") ? run.idlePings() : window.equals("recorded") ? recorded.pings() : unrecorded.pings();
            JsonObject entry = entry("ping", label, lockKind, machine, "PING round trips on a connection of their own, "
                    + (window.equals("idle") ? "back to back before the load started"
                    : "one every " + PING_EVERY.toMillis() + " ms in the " + window + " window"));
            entry.getAsJsonObject("params").addProperty("window", window);
            entry.add("primaryMetric", metric(pings.stream().mapToDouble(Double::doubleValue).average().orElseThrow(), pings, "us/op"));
            entry.add("secondaryMetrics", new JsonObject());
            entries.add(entry);
        }
        JsonObject handoffs = entry("handoffs", label, lockKind, machine, "handoffs in the recorded window, and how they were cut");
        handoffs.add("primaryMetric", single(cut.handoffs(), "#"));
        JsonObject counts = new JsonObject();
        counts.add("dropped", single(cut.dropped(), "#"));
        counts.add("messagesReadAlone", single(cut.exactMessages(), "#"));
        counts.add("waitersNotParked", single(cut.waiterNotParked(), "#"));
        handoffs.add("secondaryMetrics", counts);
        entries.add(handoffs);
        return entries;
    }

    private static JsonObject entry(String kind, String label, String lockKind, String machine, String description) {
        JsonObject entry = new JsonObject();
        entry.addProperty("benchmark", BENCHMARK + kind);
        entry.addProperty("mode", "sample");
        entry.addProperty("threads", 2 * THREADS_PER_CLIENT);
        entry.addProperty("description", description);
        entry.addProperty("machine", machine);
        JsonObject params = new JsonObject();
        params.addProperty("label", label);
        params.addProperty("contender", lockKind);
        entry.add("params", params);
        return entry;
    }

    /** A figure measured once: each of its percentiles is itself. */
    private static JsonObject single(double value, String unit) {
        return metric(value, List.of(value), unit);
    }

    private static JsonObject metric(double score, List<Double> sorted, String unit) {
        JsonObject metric = new JsonObject();
        metric.addProperty("score", score);
        JsonObject percentiles = new JsonObject();
        percentiles.addProperty("0.0", sorted.get(0));
        percentiles.addProperty("50.0", percentile(sorted, 0.5));
        percentiles.addProperty("90.0", percentile(sorted, 0.9));
        percentiles.addProperty("99.0", percentile(sorted, 0.99));
        percentiles.addProperty("100.0", sorted.get(sorted.size() - 1));
        metric.add("scorePercentiles", percentiles);
        metric.addProperty("scoreUnit", unit);
        return metric;
    }

    /** Replaces the entries of the same label and lock in {@code json}, keeping every other. */
    private static void merge(Path json, List<JsonObject> fresh) throws Exception {
        JsonArray merged = new JsonArray();
        JsonObject key = fresh.get(0).getAsJsonObject("params");
        if (Files.exists(json)) {
            try (Reader reader = Files.newBufferedReader(json)) {
                for (JsonElement old : JsonParser.parseReader(reader).getAsJsonArray()) {
                    JsonObject params = old.getAsJsonObject().getAsJsonObject("params");
                    boolean same = params.get("label").equals(key.get("label")) && params.get("contender").equals(key.get("contender"));
                    if (!same) {
                        merged.add(old);
                    }
                }
            }
        }
        fresh.forEach(merged::add);
        Files.createDirectories(json.toAbsolutePath().getParent());
        Files.writeString(json, new GsonBuilder().setPrettyPrinting().create().toJson(merged) + "\n");
    }
}
