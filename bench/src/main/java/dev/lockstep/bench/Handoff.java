package dev.lockstep.bench;

import dev.lockstep.LockOptions;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.LockSupport;
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
import org.openjdk.jmh.infra.Control;
import org.openjdk.jmh.infra.ThreadParams;

/**
 * How long a waiter takes to get a lock its holder lets go: from the holder's {@code unlock()}
 * call to the waiter's return from {@code lock()}. Two runners, one per client, pass the lock back
 * and forth. Each measured invocation is one pass: unlock, then wait until the other runner holds
 * the lock (it wakes this one at once, adding a few microseconds). Taking the lock back and
 * holding it until the other runner waits is set-up, outside the measurement.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class Handoff {

    /**
     * The shortest hold: time for the waiter's first try to fail and its wait to begin. On top
     * comes a random part as long as a spin interval, so a spinning waiter's next try falls at a
     * random point of its sleep, as it would in real use, and not always right after the release.
     */
    static final long SETTLE_MICROS = 1_000;
    static final long RANDOM_HOLD_MICROS = LockOptions.defaults().spinInterval().toNanos() / 1_000;

    /** What both runners see: who holds the lock, who waits for it, and who is letting go of it. */
    @State(Scope.Group)
    public static class Relay {

        volatile Thread holder;
        volatile Thread releasing;
        final Set<Thread> waiting = ConcurrentHashMap.newKeySet();
    }

    @State(Scope.Thread)
    public static class Runner {

        Lock lock;

        @Setup(Level.Trial)
        public void open(TwoClients clients, ThreadParams thread) {
            lock = clients.lock(thread.getSubgroupIndex(), "handoff");
        }

        /** Waits for the lock while the other runner holds it, then holds it until the other runner waits. */
        @Setup(Level.Invocation)
        public void takeOver(Relay relay, Control control) throws InterruptedException {
            Thread me = Thread.currentThread();
            relay.waiting.add(me);
            lock.lock();
            relay.holder = me;
            relay.waiting.remove(me);
            LockSupport.unpark(relay.releasing);
            // Once measurement stops, the other runner may never come back: do not wait for it then.
            while (relay.waiting.isEmpty() && !control.stopMeasurement) {
                LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(100));
            }
            TimeUnit.MICROSECONDS.sleep(SETTLE_MICROS + ThreadLocalRandom.current().nextLong(RANDOM_HOLD_MICROS));
        }
    }

    @Benchmark
    @Group("twoClients")
    @GroupThreads(1)
    public void clientA(Relay relay, Runner runner, Control control) {
        handOver(relay, runner, control);
    }

    @Benchmark
    @Group("twoClients")
    @GroupThreads(1)
    public void clientB(Relay relay, Runner runner, Control control) {
        handOver(relay, runner, control);
    }

    /** Unlocks, and returns once the waiting runner holds the lock (or, after measurement, nobody waits). */
    private static void handOver(Relay relay, Runner runner, Control control) {
        Thread me = Thread.currentThread();
        relay.releasing = me;
        runner.lock.unlock();
        while (relay.holder == me && !(control.stopMeasurement && relay.waiting.isEmpty())) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
    }
}
