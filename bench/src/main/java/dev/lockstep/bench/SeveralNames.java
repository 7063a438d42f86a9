package dev.lockstep.bench;

import dev.lockstep.multi.MultiNameLock;
import dev.lockstep.multi.MultiNameLocks;
import dev.lockstep.v5.PubSubLocks;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
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
import org.openjdk.jmh.annotations.Threads;
import org.redisson.api.RedissonClient;

/**
 * Several names at once on one node, lock then unlock: {@link MultiNameLocks#getAll} (one script to
 * take them all, one to give them back), {@link MultiNameLock} over stage 5's locks (one request
 * per name each way) and Redisson's {@code RedissonMultiLock} over {@code RLock}s. Uncontended,
 * three names: read beside {@link RoundTrip}. Contended: eight threads over two clients each take 2
 * or 3 names drawn from 5, listed in random order; the sample's maximum is the longest wait,
 * starvation's measure. Under that load {@code RedissonMultiLock} waits seconds per acquisition
 * (each attempt may wait 1.5 s per name it covers), so each of its iterations runs long.
 * Beside each figure, the servers' round trips and commands, and the acquisitions, per iteration.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Threads(1)
public class SeveralNames {

    static final List<String> NAMES = List.of("inventory", "order", "payment");
    static final List<String> POOL = List.of("inventory", "order", "payment", "account", "shipping");

    /** Who takes the names. */
    public enum Contender {
        /** {@link MultiNameLocks#getAll}: the names of one node in one script. */
        ONE_SCRIPT("getAll (one script)"),
        /** {@link MultiNameLock} over {@link PubSubLocks}' locks of one client: one request per name. */
        MULTI_NAME_LOCK("MultiNameLock over v5"),
        /** {@code RedissonMultiLock} over {@code RLock}s of one Redisson client. */
        REDISSON_MULTILOCK("RedissonMultiLock");

        private final String label;

        Contender(String label) {
            this.label = label;
        }

        /** The name charts give it. */
        String label() {
            return label;
        }
    }

    /** Acquisitions and the servers' work over one iteration. */
    abstract static class Counted {

        final SeveralNamesWork window = new SeveralNamesWork();
        RedisServers servers;

        @Setup(Level.Iteration)
        public void startCounting() {
            window.open(servers);
        }

        @TearDown(Level.Iteration)
        public void stopCounting() {
            window.close(servers);
        }
    }

    /** One client of the contender and its lock over the three names. */
    @State(Scope.Benchmark)
    public static class Whole extends Counted {

        @Param
        public Contender contender;

        private LockClient client;
        Lock lock;

        @Setup(Level.Trial)
        public void start() {
            servers = RedisServers.use(1);
            client = client(contender, servers);
            String prefix = UUID.randomUUID() + ":";
            lock = client.lockAll(NAMES.stream().map(name -> prefix + name).toList());
        }

        @TearDown(Level.Trial)
        public void stop() {
            try (RedisServers closing = servers) {
                client.close();
            }
        }
    }

    /** Two clients of the contender, and for each a lock over every 2 or 3 names of {@link #POOL}, names listed in random order. */
    @State(Scope.Benchmark)
    public static class Crowd extends Counted {

        @Param
        public Contender contender;

        private final List<LockClient> clients = new ArrayList<>();
        final List<List<Lock>> locksByClient = new ArrayList<>();
        private final AtomicInteger threads = new AtomicInteger();

        @Setup(Level.Trial)
        public void start() {
            servers = RedisServers.use(1);
            String prefix = UUID.randomUUID() + ":";
            Random order = new Random(42);
            for (int c = 0; c < 2; c++) {
                LockClient client = client(contender, servers);
                clients.add(client);
                List<Lock> locks = new ArrayList<>();
                for (int subset = 0; subset < 1 << POOL.size(); subset++) {
                    int size = Integer.bitCount(subset);
                    if (size == 2 || size == 3) {
                        List<String> names = new ArrayList<>();
                        for (int i = 0; i < POOL.size(); i++) {
                            if ((subset & 1 << i) != 0) {
                                names.add(prefix + POOL.get(i));
                            }
                        }
                        Collections.shuffle(names, order);
                        locks.add(client.lockAll(names));
                    }
                }
                locksByClient.add(locks);
            }
        }

        /** The locks of the client the next thread uses: threads alternate between the two clients. */
        List<Lock> nextThreadsLocks() {
            return locksByClient.get(threads.getAndIncrement() % 2);
        }

        @TearDown(Level.Trial)
        public void stop() {
            try (RedisServers closing = servers) {
                clients.forEach(LockClient::close);
            }
        }
    }

    private static LockClient client(Contender contender, RedisServers servers) {
        return switch (contender) {
            case ONE_SCRIPT -> LockClient.lockstep(servers.address(0), MultiNameLocks::new);
            case MULTI_NAME_LOCK -> LockClient.lockstep(servers.address(0), PubSubLocks::new);
            case REDISSON_MULTILOCK -> LockClient.redisson(servers.address(0), RedissonClient::getLock);
        };
    }

    /** One thread's client, and its own random draw of names. */
    @State(Scope.Thread)
    public static class Draw {

        List<Lock> locks;
        final Random random = new Random();

        @Setup(Level.Trial)
        public void pick(Crowd crowd) {
            locks = crowd.nextThreadsLocks();
        }
    }

    @Benchmark
    public void lockUnlock(Whole whole, SeveralNamesWork.Alone work) {
        whole.lock.lock();
        whole.lock.unlock();
        whole.window.acquired();
    }

    @Benchmark
    @Threads(8)
    public void contended(Crowd crowd, Draw draw, SeveralNamesWork.Crowded work) {
        Lock lock = draw.locks.get(draw.random.nextInt(draw.locks.size()));
        lock.lock();
        lock.unlock();
        crowd.window.acquired();
    }
}
