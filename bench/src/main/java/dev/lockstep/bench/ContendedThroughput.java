package dev.lockstep.bench;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Group;
import org.openjdk.jmh.annotations.GroupThreads;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;
import org.openjdk.jmh.infra.ThreadParams;

/**
 * Every thread takes the same lock, holds it briefly and lets go, over and over: acquisitions per
 * second, and per client. The threads are split over two clients (A and B), as waiters of two
 * application instances would be; sweep the count with {@code -tg 8,8} (16 threads), or let
 * {@link Profile} sweep 1 to 16. Beside each figure, {@link RedisWork} counts what the server did
 * per acquisition.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class ContendedThroughput {

    /** About a microsecond of work inside the lock: short next to a round trip, so the lock's own cost shows. */
    static final long HOLD_TOKENS = 500;

    @State(Scope.Thread)
    public static class SharedLock {

        Lock lock;

        @Setup(Level.Trial)
        public void open(TwoClients clients, ThreadParams thread) {
            lock = clients.lock(thread.getSubgroupIndex(), "contended");
        }
    }

    @Benchmark
    @Group("twoClients")
    @GroupThreads(8)
    public void clientA(TwoClients clients, SharedLock shared, RedisWork work) {
        acquireHoldRelease(clients, shared.lock);
    }

    @Benchmark
    @Group("twoClients")
    @GroupThreads(8)
    public void clientB(TwoClients clients, SharedLock shared, RedisWork work) {
        acquireHoldRelease(clients, shared.lock);
    }

    static void acquireHoldRelease(TwoClients clients, Lock lock) {
        lock.lock();
        try {
            clients.acquired();
            Blackhole.consumeCPU(HOLD_TOKENS);
        } finally {
            lock.unlock();
        }
    }
}
