package dev.lockstep.bench;

import dev.lockstep.DistLock;
import dev.lockstep.multi.MultiNameLock;
import dev.lockstep.v5.PubSubLocks;
import java.util.List;
import java.util.UUID;
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
import org.openjdk.jmh.annotations.Threads;
import org.redisson.RedissonMultiLock;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;

/**
 * Three names at once on one node, nobody else asking: {@link MultiNameLock} over stage 5's locks
 * beside Redisson's {@code RedissonMultiLock} over {@code RLock}s, lock then unlock. Read beside
 * {@link RoundTrip}: the multi-name lock takes its parts one request each, so it costs about six
 * round trips, three to lock and three to unlock.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Threads(1)
public class SeveralNames {

    static final List<String> NAMES = List.of("inventory", "order", "payment");

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

    @Benchmark
    public void lockUnlock(Whole whole) {
        whole.lock.lock();
        whole.lock.unlock();
    }
}
