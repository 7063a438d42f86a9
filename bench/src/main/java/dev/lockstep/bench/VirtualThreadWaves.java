package dev.lockstep.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import redis.clients.jedis.Jedis;

/**
 * A wave of virtual threads, as a JDK 21+ service makes one per request: {@code threads} of them
 * each take a lock once and let it go, all on one lock or spread over {@code locks}. One client per
 * contender, with the pool size both get in these benchmarks ({@link LockClient#CONNECTIONS}): the
 * time of the whole wave, and the connections the client had open on the server by the end. Needs JDK 21 or later (the executor is found by reflection,
 * since the module compiles for JDK 17).
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@State(Scope.Benchmark)
public class VirtualThreadWaves {

    /** Stage 5 or Redisson's RLock. */
    @Param({"V5_PUBSUB_RETRY", "REDISSON_LOCK"})
    public Contender contender;

    /** Virtual threads in the wave. */
    @Param({"1000", "10000"})
    public int threads;

    /** Lock names the threads spread over: 1 is one hot lock. */
    @Param({"1", "1000"})
    public int locks;

    private RedisServers servers;
    private LockClient client;
    private List<Lock> names;
    /** Connections open on the server before the client was made: those are not the client's. */
    private long connectionsBefore;

    @Setup(Level.Trial)
    public void start() {
        servers = RedisServers.use(1);
        connectionsBefore = connectedClients();
        client = contender.open(servers.address(0));
        String trial = UUID.randomUUID().toString().substring(0, 8);
        names = new ArrayList<>();
        for (int i = 0; i < locks; i++) {
            names.add(client.lock("wave-" + trial + "-" + i));
        }
    }

    /** Prints the connections the client had open on the server after its last wave, beyond those open before it. */
    @TearDown(Level.Trial)
    public void stop() {
        System.out.printf("%n%s, %d threads, %d locks: %d connections open after the last wave%n", contender.label(),
                threads, locks, connectedClients() - connectionsBefore);
        try (RedisServers closing = servers) {
            client.close();
        }
    }

    @Benchmark
    public void wave() throws Exception {
        ExecutorService wave = newVirtualThreadPerTaskExecutor();
        try {
            List<Future<?>> all = new ArrayList<>(threads);
            for (int i = 0; i < threads; i++) {
                Lock lock = names.get(i % locks);
                all.add(wave.submit(() -> {
                    lock.lock();
                    lock.unlock();
                    return null;
                }));
            }
            for (Future<?> thread : all) {
                thread.get(10, TimeUnit.MINUTES);
            }
        } finally {
            wave.shutdown();
        }
    }

    /** Clients connected to the server now, the admin connection that asks not counted. */
    private long connectedClients() {
        try (Jedis admin = new Jedis(servers.address(0))) {
            String clients = admin.info("clients");
            long connected = clients.lines().filter(line -> line.startsWith("connected_clients:"))
                    .mapToLong(line -> Long.parseLong(line.substring("connected_clients:".length()).strip()))
                    .findFirst().orElseThrow();
            return connected - 1;
        }
    }

    private static ExecutorService newVirtualThreadPerTaskExecutor() throws ReflectiveOperationException {
        return (ExecutorService) Executors.class.getMethod("newVirtualThreadPerTaskExecutor").invoke(null);
    }
}
