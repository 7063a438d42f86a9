package dev.lockstep.bench;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Group;
import org.openjdk.jmh.annotations.GroupThreads;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;

/**
 * Many independent locks, one Redis master against a Redis Cluster: every operation picks one of
 * {@value ScaleOutGround#NAMES} names at random, takes its lock, holds it briefly and lets go.
 * 32 threads, 16 in each of two clients (A and B, as two application instances); stage 5 beside
 * Redisson's RLock and two floors, one PING or one PUBLISH per operation. Beside the throughput,
 * {@link ScaleOutWork} counts each master's commands and processor time, from which the Cluster's
 * speed-up can be projected where the machine has too few cores to show it.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class ScaleOut {

    /** One operation by client A on a name picked at random. */
    @Benchmark
    @Group("twoClients")
    @GroupThreads(16)
    public void clientA(ScaleOutGround ground, ScaleOutWork work) {
        ground.once(0, ThreadLocalRandom.current().nextInt(ScaleOutGround.NAMES));
    }

    /** One operation by client B on a name picked at random. */
    @Benchmark
    @Group("twoClients")
    @GroupThreads(16)
    public void clientB(ScaleOutGround ground, ScaleOutWork work) {
        ground.once(1, ThreadLocalRandom.current().nextInt(ScaleOutGround.NAMES));
    }
}
