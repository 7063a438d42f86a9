package dev.lockstep.testkit.watch;

import dev.lockstep.testkit.fixture.RedisNode;
import dev.lockstep.testkit.fixture.ServerSecurity;
import java.lang.management.ManagementFactory;
import java.lang.management.MonitorInfo;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import redis.clients.jedis.Connection;
import redis.clients.jedis.ConnectionFactory;
import redis.clients.jedis.DefaultJedisSocketFactory;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.providers.PooledConnectionProvider;

/**
 * Catches lock code that talks to Redis while it holds a monitor ({@code synchronized}): a virtual
 * thread blocked on a socket inside a monitor pins its carrier thread on JDK 21 to 23, and on any JDK
 * every other thread that wants the monitor waits for the network. Clients made here check, at each
 * write to Redis and each read from it, which monitors the calling platform thread holds, and record
 * every one taken in a {@code dev.lockstep} frame. This works on any JDK, JDK 17 included, where JFR's
 * pinning events need a virtual thread on JDK 21 to 23.
 */
public final class MonitorWatch {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    /** The test kit's own frames: not lock code under test. */
    private static final String TESTKIT = "dev.lockstep.testkit.";
    private static final String LOCK_CODE = "dev.lockstep.";

    private final List<String> violations = new CopyOnWriteArrayList<>();

    /** A pooled client of {@code address} whose every write and read is checked. */
    public RedisClient client(HostAndPort address) {
        JedisClientConfig config = ServerSecurity.NONE.clientConfig();
        Connection.Builder checked = new Connection.Builder() {
            @Override
            protected Connection createConnection() {
                return new CheckedConnection(this);
            }
        };
        checked.clientConfig(config).socketFactory(new DefaultJedisSocketFactory(address, config));
        ConnectionFactory factory = ConnectionFactory.builder().hostAndPort(address).clientConfig(config)
                .connectionBuilder(checked).build();
        return RedisClient.builder().connectionProvider(new PooledConnectionProvider(factory, RedisNode.pool())).build();
    }

    /** What was caught: each a thread, the monitor it held and where it took it. */
    public List<String> violations() {
        return List.copyOf(violations);
    }

    private void check(String what) {
        ThreadInfo info = THREADS.getThreadInfo(new long[] {Thread.currentThread().getId()}, true, false)[0];
        if (info == null) {
            return;
        }
        for (MonitorInfo monitor : info.getLockedMonitors()) {
            StackTraceElement frame = monitor.getLockedStackFrame();
            if (frame != null && frame.getClassName().startsWith(LOCK_CODE)
                    && !frame.getClassName().startsWith(TESTKIT)) {
                violations.add(Thread.currentThread().getName() + " " + what + " Redis holding " + monitor.getClassName()
                        + " locked at " + frame);
            }
        }
    }

    /** A connection that checks the calling thread's monitors before each flush to and read from Redis. */
    private final class CheckedConnection extends Connection {

        CheckedConnection(Connection.Builder builder) {
            super(builder);
        }

        @Override
        protected void flush() {
            check("wrote to");
            super.flush();
        }

        @Override
        protected Object readProtocolWithCheckingBroken() {
            check("read from");
            return super.readProtocolWithCheckingBroken();
        }
    }
}
