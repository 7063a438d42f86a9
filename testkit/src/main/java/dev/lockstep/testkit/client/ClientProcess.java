package dev.lockstep.testkit.client;

import dev.lockstep.LockOptions;
import dev.lockstep.testkit.fixture.ServerSecurity;
import dev.lockstep.testkit.fixture.TestCertificates;
import dev.lockstep.testkit.history.History;
import dev.lockstep.testkit.history.History.Kind;
import dev.lockstep.testkit.resource.StockTable;
import dev.lockstep.testkit.stage.Stage;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import redis.clients.jedis.HostAndPort;

/**
 * A lock holder in its own JVM ({@link ClientMain}), so that a crash is a real SIGKILL and a
 * stop-the-world pause a real SIGSTOP: no shutdown hook, no finally block, no unlock.
 */
public final class ClientProcess implements AutoCloseable {

    private static final Duration STARTUP = Duration.ofSeconds(30);

    private final String name;
    private final History history;
    private final Duration defaultLease;
    private final BlockingQueue<String> replies = new LinkedBlockingQueue<>();
    private final ChildJvm jvm;

    /** Starts the child JVM of client {@code name} on {@code stage}, recording into {@code history}; returns once it is ready. */
    public ClientProcess(String name, Stage stage, List<HostAndPort> nodes, ServerSecurity security, LockOptions options,
                  History history) {
        this.name = name;
        this.history = history;
        this.defaultLease = options.lease();
        // The child trusts the certificate this JVM made, instead of making its own.
        List<String> properties = security == ServerSecurity.TLS
                ? List.of("-D" + TestCertificates.DIR_PROPERTY + "=" + TestCertificates.get().dir()) : List.of();
        jvm = new ChildJvm("client " + name, ClientMain.class, 64, properties, List.of(stage.locksClass() == null ? ClientMain.NO_LOCK : stage.locksClass().getName(),
                Long.toString(options.lease().toMillis()), Long.toString(options.spinInterval().toMillis()),
                nodes.stream().map(HostAndPort::toString).collect(Collectors.joining(",")), security.name()),
                ClientMain.REPLY, "lockstep-client-" + name, replies::add);
        expect("ready", STARTUP);
        send("id");
        String clientId = reply(STARTUP);
        if (!"none".equals(clientId)) {
            history.client(name, clientId);
        }
    }

    /** Takes {@code lockName} in the child JVM for {@code lease} (null: the stage's default), waiting at most {@code wait}. */
    public void lock(String lockName, Duration lease, Duration wait) {
        long start = history.now();
        send("lock " + lockName + " " + (lease == null ? "default" : Long.toString(lease.toMillis())));
        expect("acquired", wait);
        history.acquired(name, start, lease == null ? defaultLease : lease, 1, "locked in its own JVM (pid " + jvm.pid() + ")");
    }

    /**
     * Asks the child to take {@code lockName} with the stage's default lease and returns at once:
     * the child waits for the lock (and may die waiting); recorded as a request.
     */
    public void requestLock(String lockName) {
        send("lock " + lockName + " default");
        history.record(name, Kind.NOTE, "asks for the lock in its own JVM (pid " + jvm.pid() + ")");
    }

    /** Unlocks {@code lockName} in the child JVM; true when the stage accepted, false when it refused. */
    public boolean unlock(String lockName) {
        long start = history.now();
        send("unlock " + lockName);
        String reply = reply(Duration.ofSeconds(10));
        if ("unlocked".equals(reply)) {
            history.unlocked(start, name, 0, "unlock");
            return true;
        }
        history.recordAt(start, name, Kind.UNLOCK_REFUSED, "unlock refused: " + reply);
        return false;
    }

    /** The actor's name, as the history shows it. */
    public String name() {
        return name;
    }

    /**
     * The token of the child's current hold of {@code lockName}; null when the stage hands out none.
     *
     * @throws IllegalStateException when the child could not read one: it no longer holds the lock
     */
    public Long token(String lockName) {
        send("token " + lockName);
        String reply = reply(Duration.ofSeconds(10));
        if (reply.startsWith("error ")) {
            throw new IllegalStateException(name + " could not read its token of '" + lockName + "': "
                    + reply.substring("error ".length()));
        }
        return "none".equals(reply) ? null : Long.valueOf(reply);
    }

    /** Asks the child whether it holds {@code lockName}, as careful code does before it writes; recorded. */
    public boolean checkHolds(String lockName) {
        send("holds " + lockName);
        boolean holds = Boolean.parseBoolean(reply(Duration.ofSeconds(10)));
        history.record(name, Kind.NOTE, "checks: " + (holds ? "holds the lock" : "does not hold the lock"));
        return holds;
    }

    /**
     * The child reads the quantity of {@code item} from {@code table}, fenced by {@code token} when
     * there is one; recorded.
     *
     * @throws IllegalStateException when the table refused the token
     */
    public long readStock(StockTable table, String item, Long token) {
        send("read " + table.url() + " " + item + " " + (token == null ? "none" : token));
        String reply = reply(Duration.ofSeconds(10));
        if (reply.startsWith("refused ")) {
            throw new IllegalStateException(name + "'s read was " + reply);
        }
        long quantity = Long.parseLong(reply);
        history.record(name, Kind.ENTER, "reads stock=" + quantity + (token == null ? "" : " with token " + token));
        return quantity;
    }

    /**
     * The child writes {@code quantity} for {@code item} to {@code table}, fenced by {@code token}
     * when there is one; true when the table took the write. Recorded either way.
     */
    public boolean writeStock(StockTable table, String item, long quantity, Long token) {
        send("write " + table.url() + " " + item + " " + quantity + " " + (token == null ? "none" : token));
        String reply = reply(Duration.ofSeconds(10));
        boolean written = "written".equals(reply);
        String with = token == null ? "" : " with token " + token;
        history.record(name, written ? Kind.EXIT : Kind.NOTE, written ? "writes stock=" + quantity + with
                : "write" + with + " " + reply);
        return written;
    }

    /** The child reads {@code item}'s quantity and version, as an optimistic update does before it computes; recorded. */
    public StockTable.Versioned readVersioned(StockTable table, String item) {
        send("vread " + table.url() + " " + item);
        String[] reply = reply(Duration.ofSeconds(10)).split(" ");
        StockTable.Versioned read = new StockTable.Versioned(Long.parseLong(reply[0]), Long.parseLong(reply[1]));
        history.record(name, Kind.ENTER, "reads stock=" + read.quantity() + " at version " + read.version());
        return read;
    }

    /**
     * The child writes {@code quantity} for {@code item} if the row is still at the version it read;
     * true when the table took it. Recorded either way.
     */
    public boolean writeIfVersion(StockTable table, String item, long quantity, StockTable.Versioned read) {
        send("vwrite " + table.url() + " " + item + " " + quantity + " " + read.version());
        String reply = reply(Duration.ofSeconds(10));
        boolean written = "written".equals(reply);
        history.record(name, written ? Kind.EXIT : Kind.NOTE, written
                ? "writes stock=" + quantity + " if at version " + read.version() : "write " + reply);
        return written;
    }

    /** SIGSTOP: a stop-the-world pause; the holder's threads, timers and sockets all freeze. */
    public void pause() {
        jvm.pause();
        history.record(name, Kind.FAULT, "paused (SIGSTOP)");
    }

    /** SIGCONT after {@link #pause()}: the holder carries on as if no time had passed. */
    public void resume() {
        jvm.resume();
        history.record(name, Kind.FAULT, "resumed (SIGCONT)");
    }

    /** SIGKILL: the holder dies mid-work, with no chance to unlock. */
    public void kill() {
        jvm.kill();
        history.record(name, Kind.CRASH, "killed (SIGKILL)");
    }

    @Override
    public void close() {
        jvm.close();
    }

    private void send(String line) {
        jvm.send(line);
    }

    private void expect(String expected, Duration within) {
        String got = reply(within);
        if (!expected.equals(got)) {
            throw new IllegalStateException("client " + name + " answered '" + got + "' instead of " + expected);
        }
    }

    private String reply(Duration within) {
        try {
            String got = replies.poll(within.toMillis(), TimeUnit.MILLISECONDS);
            if (got == null) {
                throw new IllegalStateException("client " + name + " did not answer within " + within.toMillis() + " ms");
            }
            return got;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for client " + name, e);
        }
    }
}
