package dev.lockstep.bench;

import dev.lockstep.testkit.fixture.RedisNode;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
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
import org.openjdk.jmh.infra.Blackhole;
import redis.clients.jedis.Connection;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Protocol;

/**
 * The floor of a parallel round over N independent servers on this machine: one thread sends a
 * {@code PING} to every server, then reads every reply, with no thread in between. A quorum lock
 * asks all its nodes at once, so its acquisition over N nodes is read beside this, not beside N
 * single round trips.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@State(Scope.Benchmark)
@Threads(1)
public class FanOutRoundTrip {

    @Param({"1", "3", "5"})
    public int nodes;

    private RedisServers servers;
    private final List<EagerConnection> connections = new ArrayList<>();

    /** A connection that sends at once, so replies can be read after every request is out. */
    private static final class EagerConnection extends Connection {

        EagerConnection(HostAndPort address) {
            super(address, DefaultJedisClientConfig.builder()
                    .socketTimeoutMillis((int) RedisNode.CLIENT_TIMEOUT.toMillis())
                    .serverDefaultProtocol()
                    .build());
        }

        void sendPing() {
            sendCommand(Protocol.Command.PING);
            flush();
        }

        void sendScript() {
            sendCommand(Protocol.Command.EVAL, GRANT_LIKE, "1", "fanout-floor", "owner", "30000");
            flush();
        }
    }

    @Setup(Level.Trial)
    public void start() {
        servers = RedisServers.use(nodes);
        servers.addresses().forEach(address -> connections.add(new EagerConnection(address)));
    }

    @TearDown(Level.Trial)
    public void stop() {
        try (RedisServers closing = servers) {
            connections.forEach(Connection::close);
        }
    }

    /** A script with a lock grant's writes: one hash field and an expiry. */
    private static final String GRANT_LIKE =
            "redis.call('hset', KEYS[1], ARGV[1], 1); redis.call('pexpire', KEYS[1], ARGV[2]); return 1";

    @Benchmark
    public void scriptEvery(Blackhole replies) {
        for (EagerConnection connection : connections) {
            connection.sendScript();
        }
        for (EagerConnection connection : connections) {
            replies.consume(connection.getOne());
        }
    }

    @Benchmark
    public void pingEvery(Blackhole replies) {
        for (EagerConnection connection : connections) {
            connection.sendPing();
        }
        for (EagerConnection connection : connections) {
            replies.consume(connection.getStatusCodeReply());
        }
    }
}
