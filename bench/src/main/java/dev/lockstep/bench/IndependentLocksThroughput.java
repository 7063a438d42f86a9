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
import org.openjdk.jmh.infra.ThreadParams;

/**
 * {@link ContendedThroughput}'s loop with no contention: every thread takes its own lock. Whether
 * the total grows with the threads shows what a client and the one server can carry when the lock
 * itself is not the bottleneck.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class IndependentLocksThroughput {

    @State(Scope.Thread)
    public static class OwnLock {

        Lock lock;

        @Setup(Level.Trial)
        public void open(TwoClients clients, ThreadParams thread) {
            lock = clients.lock(thread.getSubgroupIndex(), "independent-" + thread.getThreadIndex());
        }
    }

    @Benchmark
    @Group("twoClients")
    @GroupThreads(8)
    public void clientA(TwoClients clients, OwnLock own, RedisWork work) {
        ContendedThroughput.acquireHoldRelease(clients, own.lock);
    }

    @Benchmark
    @Group("twoClients")
    @GroupThreads(8)
    public void clientB(TwoClients clients, OwnLock own, RedisWork work) {
        ContendedThroughput.acquireHoldRelease(clients, own.lock);
    }
}
