package dev.lockstep.bench;

import dev.lockstep.internal.LuaScript;
import dev.lockstep.testkit.fixture.RedisNode;
import dev.lockstep.v6.RedLocks;
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
 * single round trips. A second floor sends stage 6's own lock script the same way, so that what
 * stage 6 costs beyond it is its client's part. Both count the servers' processor time per round
 * ({@link ServerCpu}).
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@State(Scope.Benchmark)
@Threads(1)
public class FanOutRoundTrip {

    @Param({"1", "3", "5"})
    public int nodes;

    private RedisServers servers;
    private long freshNames;
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

    /** Stage 6's lock script, sent by SHA as stage 6 sends it. */
    private static final LuaScript LOCK = LuaScript.load(RedLocks.class, "lock.lua");
    private static final List<String> LOCK_ARGS = List.of("30000", "floor-owner", "0");

    /** The round stage 6 sends to take a free lock, with none of its client around it: a fresh lock name each time. */
    @Benchmark
    public void scriptEvery(Blackhole replies, ServerCpu cpu) {
        List<String> keys = List.of("fanout-floor-" + freshNames++);
        cpu.round(servers);
        for (EagerConnection connection : connections) {
            LOCK.send(connection, keys, LOCK_ARGS);
        }
        for (EagerConnection connection : connections) {
            replies.consume(LOCK.read(connection, keys, LOCK_ARGS));
        }
    }

    @Benchmark
    public void pingEvery(Blackhole replies, ServerCpu cpu) {
        cpu.round(servers);
        for (EagerConnection connection : connections) {
            connection.sendPing();
        }
        for (EagerConnection connection : connections) {
            replies.consume(connection.getStatusCodeReply());
        }
    }
}
