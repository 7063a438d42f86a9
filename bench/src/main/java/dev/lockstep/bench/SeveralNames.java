package dev.lockstep.bench;

import dev.lockstep.DistLock;
import dev.lockstep.multi.MultiNameLock;
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
import org.redisson.RedissonMultiLock;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;

/**
 * Several names at once on one node: {@link MultiNameLock} over stage 5's locks beside Redisson's
 * {@code RedissonMultiLock} over {@code RLock}s, lock then unlock. Uncontended, three names: read
 * beside {@link RoundTrip}, the multi-name lock takes its parts one request each, so it costs about
 * six round trips. Contended: eight threads over two clients each take 2 or 3 names drawn from 5,
 * listed in random order; the sample's maximum is the longest wait, starvation's measure. Under
 * that load {@code RedissonMultiLock} waits seconds per acquisition (each attempt may wait 1.5 s
 * per name it covers), so a run of it is long: {@code -p contender=MULTI_NAME_LOCK} measures ours alone.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Threads(1)
public class SeveralNames {

    static final List<String> NAMES = List.of("inventory", "order", "payment");
    static final List<String> POOL = List.of("inventory", "order", "payment", "account", "shipping");

    /** Who takes the three names. */
    public enum Contender {
        /** {@link MultiNameLock} over {@link PubSubLocks}' locks of one client. */
        MULTI_NAME_LOCK,
        /** {@code RedissonMultiLock} over {@code RLock}s of one Redisson client. */
        REDISSON_MULTILOCK
    }

    /** One client of the contender and its lock over the three names. */
    @State(Scope.Benchmark)
    public static class Whole {

        @Param
        public Contender contender;

        private RedisServers servers;
        private LockClient client;
        Lock lock;

        @Setup(Level.Trial)
        public void start() {
            servers = RedisServers.use(1);
            String prefix = UUID.randomUUID() + ":";
            if (contender == Contender.MULTI_NAME_LOCK) {
                client = LockClient.lockstep(servers.addresses().get(0), PubSubLocks::new);
                lock = new MultiNameLock(NAMES.stream().map(name -> (DistLock) client.lock(prefix + name)).toList());
            } else {
                client = LockClient.redisson(servers.addresses().get(0), RedissonClient::getLock);
                lock = new RedissonMultiLock(NAMES.stream().map(name -> (RLock) client.lock(prefix + name))
                        .toArray(RLock[]::new));
            }
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
    public static class Crowd {

        @Param
        public Contender contender;

        private RedisServers servers;
        private final List<LockClient> clients = new ArrayList<>();
        final List<List<Lock>> locksByClient = new ArrayList<>();
        private final AtomicInteger threads = new AtomicInteger();

        @Setup(Level.Trial)
        public void start() {
            servers = RedisServers.use(1);
            String prefix = UUID.randomUUID() + ":";
            Random order = new Random(42);
            for (int c = 0; c < 2; c++) {
                LockClient client = contender == Contender.MULTI_NAME_LOCK
                        ? LockClient.lockstep(servers.addresses().get(0), PubSubLocks::new)
                        : LockClient.redisson(servers.addresses().get(0), RedissonClient::getLock);
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
                        locks.add(whole(client, names));
                    }
                }
                locksByClient.add(locks);
            }
        }

        private Lock whole(LockClient client, List<String> names) {
            if (contender == Contender.MULTI_NAME_LOCK) {
                return new MultiNameLock(names.stream().map(name -> (DistLock) client.lock(name)).toList());
            }
            return new RedissonMultiLock(names.stream().map(name -> (RLock) client.lock(name)).toArray(RLock[]::new));
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
    public void lockUnlock(Whole whole) {
        whole.lock.lock();
        whole.lock.unlock();
    }

    @Benchmark
    @Threads(8)
    public void contended(Draw draw) {
        Lock lock = draw.locks.get(draw.random.nextInt(draw.locks.size()));
        lock.lock();
        lock.unlock();
    }
}
