package dev.lockstep.bench;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import redis.clients.jedis.RedisClient;

/**
 * The unit every latency is read in: one {@code PING} round trip, through the same kind of pooled
 * Jedis client the stages use. A lock+unlock needs two round trips at least.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@State(Scope.Benchmark)
public class RoundTrip {

    private RedisServers servers;
    private RedisClient redis;

    @Setup(Level.Trial)
    public void start() {
        servers = RedisServers.use(1);
        redis = LockClient.jedis(servers.address(0));
    }

    @TearDown(Level.Trial)
    public void stop() {
        try (RedisServers closing = servers) {
            redis.close();
        }
    }

    @Benchmark
    public String ping() {
        return redis.ping();
    }
}
