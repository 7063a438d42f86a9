package dev.lockstep.examples.inventory.load;

import dev.lockstep.Guarantee;
import dev.lockstep.LockOptions;
import dev.lockstep.Locks;
import dev.lockstep.examples.inventory.Product;
import dev.lockstep.examples.inventory.Stage;
import dev.lockstep.examples.inventory.load.OrderLoad.Answer;
import dev.lockstep.testkit.Await;
import dev.lockstep.testkit.RedisFixture;
import dev.lockstep.testkit.RedisNode;
import dev.lockstep.testkit.RedisTraffic;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.Supplier;
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
        // The tests run a variant without a pause in this JVM: a quicker start, the same HTTP and Redis.
        boolean ownJvms = !quick || variant.pause != null;
        try (Instances instances = ownJvms
                ? Instances.sideBySide(name -> new ServiceJvm(name, redis, settings, logs.resolve(run + "-" + name + ".log"), quick))
                : Instances.oneAfterTheOther(() -> new InProcessService(redis, http, settings))) {
            Instance a = instances.a();
            Instance b = instances.b();
            OrderLoad load = new OrderLoad();
            load.restock(a.uri(), shape.products(), shape.stock());
            CompletableFuture<Void> pausing = variant.pause == null ? CompletableFuture.completedFuture(null)
                    : ((ServiceJvm) a).sellingOrder(PAUSE_AT_SALE).thenRunAsync(() -> pause((ServiceJvm) a, variant.pause));
            long commandsBefore = commands();
            long start = System.nanoTime();
            List<Answer> answers = load.fire(List.of(a.uri(), b.uri()), shape.products(), shape.orders(),
                    shape.workersPerInstance());
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            double commandsPerOrder = (double) (commands() - commandsBefore) / answers.size();
            if (!pausing.isDone()) {
                throw new IllegalStateException(a + " sold fewer than " + PAUSE_AT_SALE + " orders, so it was never paused");
            }
            pausing.join();
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
                "--lockstep.stage=" + stage.id(),
                "--inventory.work=" + variant.work.toMillis() + "ms",
                "--inventory.lock-wait=30s"));
        if (variant.lease != null) {
            settings.add("--lockstep.lease=" + variant.lease.toMillis() + "ms");
        }
        return settings;
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

        /** Instances in JVMs of their own, started at once. */
        static Instances sideBySide(Function<String, Instance> start) {
            CompletableFuture<Instance> a = CompletableFuture.supplyAsync(() -> start.apply("A"));
            CompletableFuture<Instance> b = CompletableFuture.supplyAsync(() -> start.apply("B"));
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
