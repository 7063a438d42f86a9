package dev.lockstep.bench;

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

/**
 * v6: how long {@code lock()} takes over 1, 3 and 5 independent masters, and over 5 with one of
 * them stalled (SIGSTOP). Only the acquisition is measured; the unlock after each is set-up.
 * Requests to the nodes go out in parallel, so more nodes should cost little; a stalled node
 * should cost one node timeout, not a lease. The servers' processor time per acquisition
 * ({@link ServerCpu}) includes the unlock after it.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Threads(1)
public class QuorumAcquire {

    /** One client of the contender over {@code nodes} healthy masters. */
    @State(Scope.Benchmark)
    public static class Healthy {

        @Param
        public QuorumContender contender;

        @Param({"1", "3", "5"})
        public int nodes;

        private RedisServers servers;
        private LockClient client;
        Lock lock;

        @Setup(Level.Trial)
        public void start() {
            servers = RedisServers.use(nodes);
            client = contender.open(servers.addresses());
            lock = client.lock("quorum-" + UUID.randomUUID());
        }

        @TearDown(Level.Invocation)
        public void release() {
            lock.unlock();
        }

        @TearDown(Level.Trial)
        public void stop() {
            try (RedisServers closing = servers) {
                client.close();
            }
        }
    }

    /**
     * Five masters, the last one stalled for the whole trial. MultiLocks need every node, so only
     * the RedLocks can be measured here.
     */
    @State(Scope.Benchmark)
    public static class OneNodeStalled {

        static final int NODES = 5;

        @Param({"V6_REDLOCK", "REDISSON_REDLOCK"})
        public QuorumContender contender;

        private RedisServers servers;
        private LockClient client;
        Lock lock;

        @Setup(Level.Trial)
        public void start() {
            if (contender.needsEveryNode()) {
                throw new IllegalArgumentException(contender.label() + " needs every node, so it waits forever while one is stalled");
            }
            // Started here even when servers are given: only a process of ours can be stopped.
            servers = RedisServers.start(NODES);
            client = contender.open(servers.addresses());
            lock = client.lock("quorum-" + UUID.randomUUID());
            servers.pause(NODES - 1);
        }

        @TearDown(Level.Invocation)
        public void release() {
            lock.unlock();
        }

        /** Thaws the stalled node first, so the clients can close their connections to it. */
        @TearDown(Level.Trial)
        public void stop() {
            try (RedisServers closing = servers) {
                servers.resume(NODES - 1);
                client.close();
            }
        }
    }

    @Benchmark
    public void acquire(Healthy healthy, ServerCpu cpu) {
        cpu.round(healthy.servers);
        healthy.lock.lock();
    }

    @Benchmark
    public void acquireWithOneNodeStalled(OneNodeStalled stalled) {
        stalled.lock.lock();
    }
}
