package dev.lockstep.examples.inventory.load;

import dev.lockstep.Guarantee;
import dev.lockstep.LockOptions;
import dev.lockstep.Locks;
import dev.lockstep.examples.inventory.Product;
import dev.lockstep.examples.inventory.Stage;
import dev.lockstep.examples.inventory.load.OrderLoad.Answer;
import dev.lockstep.testkit.fixture.Await;
import dev.lockstep.testkit.fixture.RedisFixture;
import dev.lockstep.testkit.fixture.RedisNode;
import dev.lockstep.testkit.watch.RedisTraffic;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import redis.clients.jedis.UnifiedJedis;
import tools.jackson.databind.json.JsonMapper;

/**
 * The load run: two instances of the service, each in its own JVM, against one real Redis; orders
 * fired at both over HTTP; one row per stage and variant. {@code main} runs every stage under every
 * variant and writes the report; the tests run a few rows, smaller.
 */
public final class LoadRun implements AutoCloseable {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    /** The sale after which the paused instance is stopped: a few orders in, with stock left to sell twice. */
    private static final int PAUSE_AT_SALE = 3;
    /** How long the read-gap run waits for B's next sale (A's lease must run out first) and for A's woken sale to end. */
    private static final Duration GAP_STEP = Duration.ofSeconds(30);
    /** The units in stock in a {@code Selling 1 of p0: 97 in stock} log line. */
    private static final Pattern IN_STOCK = Pattern.compile("Selling \\d+ of (\\S+): (\\d+) in stock");

    private final RedisFixture fixture = RedisFixture.fromSystemProperty();
    private final RedisNode redis = fixture.start();
    private final HttpClient http = HttpClient.newHttpClient();
    private final Path logs;
    private final boolean quick;

    /** A load run whose instances log under {@code logs}; {@code quick} runs the tests' smaller shapes. */
    LoadRun(Path logs, boolean quick) {
        this.logs = logs;
        this.quick = quick;
    }

    /** Every stage under every variant; the report goes to {@code <args[0]>/results}. */
    public static void main(String[] args) throws Exception {
        Path module = Path.of(args.length > 0 ? args[0] : ".");
        List<RunResult> results = new ArrayList<>();
        try (LoadRun load = new LoadRun(module.resolve("target/load-logs"), false)) {
            System.out.printf("Load run: two instances of the service, Redis %s%n", load.fixture.description());
            for (Variant variant : Variant.values()) {
                for (Stage stage : Stage.values()) {
                    RunResult result = load.run(variant, stage);
                    System.out.println(Report.line(result));
                    results.add(result);
                }
            }
        }
        String report = Report.markdown(results);
        System.out.println();
        System.out.println(report);
        Files.createDirectories(module.resolve("results"));
        Files.writeString(module.resolve("results/load-report.md"), report);
        Files.writeString(module.resolve("results/oversold.svg"), Report.svg(results));
        System.out.println("Written: " + module.resolve("results/load-report.md") + ", " + module.resolve("results/oversold.svg"));
    }

    /** Runs {@code stage} under {@code variant} on fresh instances and a flushed Redis. */
    RunResult run(Variant variant, Stage stage) throws Exception {
        Variant.Shape shape = quick ? variant.quick : variant.full;
        try (UnifiedJedis client = redis.newClient()) {
            client.flushAll();
        }
        List<String> settings = settings(variant, stage);
        String run = variant.name().toLowerCase() + "-" + stage.id();
        // The tests run in this JVM every instance that is never stopped nor watched: a quicker start, the same HTTP and
        // Redis. A paused instance needs a JVM of its own (SIGSTOP), and so does one whose log the read gap watches.
        Function<String, Instance> ownJvm = name -> new ServiceJvm(name, redis, settings, logs.resolve(run + "-" + name + ".log"), quick);
        Supplier<Instance> inProcess = () -> new InProcessService(redis, http, settings);
        try (Instances instances = !quick || variant.wakesInReadGap ? Instances.sideBySide(ownJvm, ownJvm)
                : variant.pause != null ? Instances.sideBySide(ownJvm, name -> inProcess.get())
                : Instances.oneAfterTheOther(inProcess)) {
            Instance a = instances.a();
            Instance b = instances.b();
            OrderLoad load = new OrderLoad();
            load.restock(a.uri(), shape.products(), shape.stock());
            CompletableFuture<String> stopSale = variant.stopsAnInstance()
                    ? ((ServiceJvm) a).sellingOrder(PAUSE_AT_SALE) : CompletableFuture.completedFuture(null);
            CompletableFuture<Void> stopping = stopSale.thenAcceptAsync(selling -> stop(variant, stage, a, selling, b));
            // In the tests' small stock B, warm in this JVM, can sell out before A (a JVM of its own, cold) has sold
            // three: there B's orders start once A is stopped mid-order. The full run fires at both at once.
            CompletableFuture<?> bStarts = quick ? stopSale : CompletableFuture.completedFuture(null);
            long commandsBefore = commands();
            long start = System.nanoTime();
            List<Answer> answers = load.fire(List.of(a.uri(), b.uri()), shape.products(), shape.orders(),
                    shape.workersPerInstance(), bStarts);
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            double commandsPerOrder = (double) (commands() - commandsBefore) / answers.size();
            if (!stopSale.isDone()) {
                throw new IllegalStateException(a + " sold fewer than " + PAUSE_AT_SALE + " orders, so it was never paused");
            }
            stopping.join();
            long finalStock = 0;
            for (int product = 0; product < shape.products(); product++) {
                finalStock += JSON.readValue(load.product(b.uri(), product), Product.class).stock();
            }
            long accepted = count(answers, 201);
            long outOfStock = count(answers, 409);
            long lockBusy = count(answers, 503);
            return new RunResult(variant, stage, variant.claimedBy(stage, guarantees(stage)), shape.totalStock(),
                    accepted, outOfStock, lockBusy, answers.size() - accepted - outOfStock - lockBusy, finalStock,
                    percentile(answers, 50), percentile(answers, 99), commandsPerOrder, took);
        }
    }

    private List<String> settings(Variant variant, Stage stage) {
        List<String> settings = new ArrayList<>(List.of(
                stage.setting(),
                "--inventory.work=" + variant.work.toMillis() + "ms",
                "--inventory.lock-wait=30s"));
        if (variant.lease != null) {
            // The fixed lease of stages 1-3 and the watchdog's from stage 4 on: one lease for every stage.
            settings.add("--lockstep.lease=" + variant.lease.toMillis() + "ms");
            settings.add("--lockstep.watchdog-timeout=" + variant.lease.toMillis() + "ms");
        }
        return settings;
    }

    /** Stops {@code a}, which has just logged {@code selling}, as {@code variant} says; nothing when it stops no instance. */
    private void stop(Variant variant, Stage stage, Instance a, String selling, Instance b) {
        if (variant.pause != null) {
            pause((ServiceJvm) a, variant.pause);
        } else if (variant.wakesInReadGap) {
            // Without a lock nothing keeps the other instance's writes out of either gap: no gap to check.
            wakeInReadGap((ServiceJvm) a, selling, (ServiceJvm) b, stage != Stage.NONE);
        }
    }

    /**
     * Stops {@code a} in the middle of the sale it logged as {@code aSelling}. Once {@code b}'s next
     * sale has read the stock (A's lease ran out), stops {@code b} there, wakes {@code a} and waits
     * for its sale to end, written or refused, then wakes {@code b}: A writes in the gap between B's
     * read and B's write.
     *
     * @throws IllegalStateException when {@code checkGap} and either instance wrote before it was
     *                               stopped: the run missed the gap
     */
    private void wakeInReadGap(ServiceJvm a, String aSelling, ServiceJvm b, boolean checkGap) {
        CompletableFuture<String> bSelling = b.sellingOrder(1);
        a.pause();
        try {
            if (checkGap) {
                requireUnwritten(a, aSelling);
            }
            String bRead = await(bSelling, b + "'s next sale");
            b.pause();
            try {
                if (checkGap) {
                    requireUnwritten(b, bRead);
                }
                CompletableFuture<String> aEnded = a.saleEnded();
                a.resume();
                await(aEnded, "the end of " + a + "'s woken sale");
            } finally {
                b.resume();
            }
        } finally {
            // Woken already unless a step above failed.
            a.resume();
        }
    }

    /** Checks that the stock is still what {@code instance}'s {@code selling} line read: it was stopped before its write. */
    private void requireUnwritten(ServiceJvm instance, String selling) {
        Matcher read = IN_STOCK.matcher(selling);
        if (!read.find()) {
            throw new IllegalStateException("not a sale's log line: " + selling);
        }
        try (UnifiedJedis client = redis.newClient()) {
            String stock = client.hget("inventory:product:" + read.group(1), "stock");
            if (!read.group(2).equals(stock)) {
                throw new IllegalStateException(instance + " read " + read.group(2) + " and the stock is " + stock
                        + " before it was stopped: its write went in first, so the run missed the read-write gap");
            }
        }
    }

    private static String await(CompletableFuture<String> line, String what) {
        try {
            return line.get(GAP_STEP.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for " + what, e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("no " + what + " within " + GAP_STEP.toSeconds() + " s", e);
        }
    }

    /** Stops {@code instance} mid-order for {@code pause}: its lease runs out while it cannot renew it. */
    private static void pause(ServiceJvm instance, Duration pause) {
        instance.pause();
        try {
            Await.pause(pause);
        } finally {
            instance.resume();
        }
    }

    private Set<Guarantee> guarantees(Stage stage) {
        try (UnifiedJedis client = redis.newClient(); Locks locks = stage.open(List.of(client), LockOptions.defaults())) {
            return locks == null ? Set.of() : locks.guarantees();
        }
    }

    private long commands() {
        Map<String, Long> calls = RedisTraffic.commandstats(redis);
        calls.remove("info");
        return calls.values().stream().mapToLong(Long::longValue).sum();
    }

    private static long count(List<Answer> answers, int status) {
        return answers.stream().filter(answer -> answer.status() == status).count();
    }

    private static double percentile(List<Answer> answers, int percent) {
        long[] nanos = answers.stream().mapToLong(Answer::nanos).sorted().toArray();
        int index = Math.max(0, (int) Math.ceil(percent / 100.0 * nanos.length) - 1);
        return nanos[index] / 1e6;
    }

    @Override
    public void close() {
        fixture.close();
    }

    /** The two instances of a run, started side by side; closing stops both. */
    private record Instances(Instance a, Instance b) implements AutoCloseable {

        /** Instances started at once, A by {@code startA} and B by {@code startB}, each given its name. */
        static Instances sideBySide(Function<String, Instance> startA, Function<String, Instance> startB) {
            CompletableFuture<Instance> a = CompletableFuture.supplyAsync(() -> startA.apply("A"));
            CompletableFuture<Instance> b = CompletableFuture.supplyAsync(() -> startB.apply("B"));
            try {
                return new Instances(a.join(), b.join());
            } catch (RuntimeException e) {
                a.thenAccept(Instance::close);
                b.thenAccept(Instance::close);
                throw e;
            }
        }

        /** Instances in this JVM, started one after the other: Spring sets up logging once per JVM at a time. */
        static Instances oneAfterTheOther(Supplier<Instance> start) {
            Instance a = start.get();
            try {
                return new Instances(a, start.get());
            } catch (RuntimeException e) {
                a.close();
                throw e;
            }
        }

        @Override
        public void close() {
            CompletableFuture<Void> closingA = CompletableFuture.runAsync(a::close);
            b.close();
            closingA.join();
        }
    }
}
