package dev.lockstep.bench;

import dev.lockstep.LockOptions;
import dev.lockstep.ReadWriteDistLock;
import dev.lockstep.rw.ReadWriteLocks;
import dev.lockstep.v5.PubSubLocks;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Lock;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Group;
import org.openjdk.jmh.annotations.GroupThreads;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.Blackhole;
import org.openjdk.jmh.infra.ThreadParams;
import org.redisson.api.RReadWriteLock;
import org.redisson.api.RedissonClient;
import redis.clients.jedis.RedisClient;

/**
 * One lock, nine reads to one write, threads split over two clients: operations per second. The
 * read-write lock lets readers in together; stage 5's lock, which has one side, takes both reads and
 * writes exclusively; Redisson's {@code RReadWriteLock} is the twin. Beside the throughput, how many
 * readers were inside when a reader entered ({@link Sharing}): above 1, reads overlapped.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class ReadWriteMix {

    /** What takes the reads and the writes. */
    public enum Contender {
        V5_PUBSUB_RETRY("v5-pubsub-retry (one lock for both)"),
        READ_WRITE_LOCK("read-write-lock"),
        REDISSON_READ_WRITE_LOCK("Redisson RReadWriteLock");

        private final String label;

        Contender(String label) {
            this.label = label;
        }

        /** The name tables use. */
        public String label() {
            return label;
        }
    }

    /** The server, two clients of the contender, and the count of readers inside right now. */
    @State(Scope.Benchmark)
    public static class Mix {

        @Param
        public Contender contender;

        private final String name = "mix-" + UUID.randomUUID().toString().substring(0, 8);
        final AtomicInteger readersInside = new AtomicInteger();
        private RedisServers servers;
        private final RedisClient[] redis = new RedisClient[2];
        private final AutoCloseable[] clients = new AutoCloseable[2];
        private final Lock[] reads = new Lock[2];
        private final Lock[] writes = new Lock[2];

        @Setup(Level.Trial)
        public void start() {
            servers = RedisServers.use(1);
            for (int i = 0; i < 2; i++) {
                switch (contender) {
                    case V5_PUBSUB_RETRY -> {
                        redis[i] = LockClient.jedis(servers.address(0));
                        PubSubLocks locks = new PubSubLocks(redis[i], LockOptions.defaults());
                        clients[i] = locks;
                        reads[i] = locks.get(name);
                        writes[i] = reads[i];
                    }
                    case READ_WRITE_LOCK -> {
                        redis[i] = LockClient.jedis(servers.address(0));
                        ReadWriteLocks locks = new ReadWriteLocks(redis[i], LockOptions.defaults());
                        clients[i] = locks;
                        ReadWriteDistLock lock = locks.get(name);
                        reads[i] = lock.readLock();
                        writes[i] = lock.writeLock();
                    }
                    case REDISSON_READ_WRITE_LOCK -> {
                        RedissonClient client = LockClient.redissonClient(servers.address(0));
                        clients[i] = client::shutdown;
                        RReadWriteLock lock = client.getReadWriteLock(name);
                        reads[i] = lock.readLock();
                        writes[i] = lock.writeLock();
                    }
                }
            }
        }

        @TearDown(Level.Trial)
        public void stop() throws Exception {
            try (RedisServers closing = servers) {
                for (int i = 0; i < 2; i++) {
                    clients[i].close();
                    if (redis[i] != null) {
                        redis[i].close();
                    }
                }
            }
        }
    }

    /** One thread's sides of the lock, in its client, and its own dice. */
    @State(Scope.Thread)
    public static class Sides {

        Lock read;
        Lock write;
        final SplittableRandom dice = new SplittableRandom();

        @Setup(Level.Trial)
        public void open(Mix mix, ThreadParams thread) {
            read = mix.reads[thread.getSubgroupIndex()];
            write = mix.writes[thread.getSubgroupIndex()];
        }
    }

    /** Reads taken, and the readers already inside at each: JMH sums both over threads and iterations. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.EVENTS)
    public static class Sharing {

        /** Read acquisitions. */
        public long reads;
        /** Other readers inside when a reader entered, summed: 1 + this / reads is the readers inside on average. */
        public long othersInside;
    }

    @Benchmark
    @Group("ninetyTen")
    @GroupThreads(8)
    public void clientA(Mix mix, Sides sides, Sharing sharing) {
        operate(mix, sides, sharing);
    }

    @Benchmark
    @Group("ninetyTen")
    @GroupThreads(8)
    public void clientB(Mix mix, Sides sides, Sharing sharing) {
        operate(mix, sides, sharing);
    }

    private static void operate(Mix mix, Sides sides, Sharing sharing) {
        if (sides.dice.nextInt(10) == 0) {
            sides.write.lock();
            try {
                Blackhole.consumeCPU(ContendedThroughput.HOLD_TOKENS);
            } finally {
                sides.write.unlock();
            }
            return;
        }
        sides.read.lock();
        try {
            sharing.othersInside += mix.readersInside.getAndIncrement();
            sharing.reads++;
            Blackhole.consumeCPU(ContendedThroughput.HOLD_TOKENS);
            mix.readersInside.decrementAndGet();
        } finally {
            sides.read.unlock();
        }
    }
}
