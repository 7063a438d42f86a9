package dev.lockstep.testkit.fault;

import dev.lockstep.testkit.fixture.RedisNode;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import redis.clients.jedis.CommandObject;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.RedisProtocol;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.executors.CommandExecutor;
import redis.clients.jedis.executors.DefaultCommandExecutor;
import redis.clients.jedis.providers.PooledConnectionProvider;

/**
 * A client of a real Redis whose next command from a chosen thread (a watchdog's, say) is held back
 * before it is sent, until the test lets it go: the GC pause or busy processor that stops one
 * thread between deciding to send and sending, made deterministic. Every other command goes
 * straight to the server. It is an ordinary {@link UnifiedJedis}, used through the public API.
 */
public final class HeldSends extends UnifiedJedis {

    private final Gates gates;

    private HeldSends(Gates gates, PooledConnectionProvider provider) {
        super(gates, provider, (RedisProtocol) null, null);
        this.gates = gates;
    }

    /** A client of the plain server at {@code address}. */
    public static HeldSends to(HostAndPort address) {
        return to(address, DefaultJedisClientConfig.builder().build());
    }

    /** A client of the server at {@code address}, connected as {@code config} says (timeouts, TLS, user). */
    public static HeldSends to(HostAndPort address, JedisClientConfig config) {
        PooledConnectionProvider provider = new PooledConnectionProvider(address, config, RedisNode.pool());
        return new HeldSends(new Gates(new DefaultCommandExecutor(provider)), provider);
    }

    /** The next command sent by a thread that {@code sender} accepts waits, unsent, for {@link #letGo()}. */
    public void holdNext(Predicate<Thread> sender) {
        Gate gate = new Gate(sender);
        gates.last.set(gate);
        gates.armed.set(gate);
    }

    /** Waits up to {@code within} until a command is held back; false when none came. */
    public boolean awaitHeld(Duration within) throws InterruptedException {
        Gate gate = gates.last.get();
        return gate != null && gate.held.await(within.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Holds nothing more: a command already held is sent, and the next one goes straight through. */
    public void disarm() {
        gates.armed.set(null);
        letGo();
    }

    /** Sends the held command. */
    public void letGo() {
        Gate gate = gates.last.get();
        if (gate != null) {
            gate.open.countDown();
        }
    }

    /** Waits up to {@code within} until the command let go has its reply (or failed); false when it has not. */
    public boolean awaitAnswered(Duration within) throws InterruptedException {
        Gate gate = gates.last.get();
        return gate != null && gate.answered.await(within.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** One held command: who it waits for, and the moments it was caught, let go and answered. */
    private static final class Gate {

        final Predicate<Thread> sender;
        final CountDownLatch held = new CountDownLatch(1);
        final CountDownLatch open = new CountDownLatch(1);
        final CountDownLatch answered = new CountDownLatch(1);

        Gate(Predicate<Thread> sender) {
            this.sender = sender;
        }
    }

    /** Sends every command, after holding back the one the armed gate is waiting for. */
    private static final class Gates implements CommandExecutor {

        private final CommandExecutor direct;
        /** The gate waiting for its command, until it catches one. */
        final AtomicReference<Gate> armed = new AtomicReference<>();
        /** The gate armed last, whether or not it caught its command yet. */
        final AtomicReference<Gate> last = new AtomicReference<>();

        Gates(CommandExecutor direct) {
            this.direct = direct;
        }

        @Override
        public <T> T executeCommand(CommandObject<T> command) {
            Gate gate = armed.get();
            if (gate == null || !gate.sender.test(Thread.currentThread()) || !armed.compareAndSet(gate, null)) {
                return direct.executeCommand(command);
            }
            gate.held.countDown();
            try {
                gate.open.await();
            } catch (InterruptedException closing) {
                // The client closes under the held command: send it now, as a late thread would.
                Thread.currentThread().interrupt();
            }
            try {
                return direct.executeCommand(command);
            } finally {
                gate.answered.countDown();
            }
        }

        @Override
        public void close() throws Exception {
            direct.close();
        }
    }
}
