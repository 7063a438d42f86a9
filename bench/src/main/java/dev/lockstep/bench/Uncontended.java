package dev.lockstep.bench;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;

/** {@code lock()} then {@code unlock()} with nobody else asking: the cost of the lock itself, read beside {@link RoundTrip}. */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Threads(1)
public class Uncontended {

    @State(Scope.Thread)
    public static class FreeLock {

        Lock lock;

        @Setup(Level.Trial)
        public void open(TwoClients clients) {
            lock = clients.lock(0, "uncontended");
        }
    }

    @Benchmark
    public void lockUnlock(TwoClients clients, FreeLock free, RedisWork work) {
        free.lock.lock();
        free.lock.unlock();
        clients.acquired();
    }
}
