package dev.lockstep.testkit;

import java.time.Duration;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.exceptions.JedisException;

/**
 * One real Redis server with the faults the scenarios inject. Started by a {@link RedisFixture};
 * {@link #close()} stops it for good.
 */
public interface RedisNode extends AutoCloseable {

    /** The prefix of the keys {@link #awaitReplicated} writes: not lock keys, so timelines leave them out. */
    String REPLICATION_MARKER = "replication-marker-";

    /** Timeouts for clients the scenarios open: short, so a dead node fails a call quickly. */
    Duration CLIENT_TIMEOUT = Duration.ofMillis(1000);

    /** Where clients connect. */
    HostAndPort address();

    /** A short name for logs and timelines, e.g. {@code redis:6412}. */
    default String label() {
        return "redis:" + address().getPort();
    }

    /** How this node lets clients in: plain, with a password, or over TLS. */
    default ServerSecurity security() {
        return ServerSecurity.NONE;
    }

    /** A new pooled client of this node with {@link #CLIENT_TIMEOUT}; the caller closes it. */
    default RedisClient newClient() {
        return newClient(address(), security());
    }

    /** A new pooled client of the plain server at {@code address} (a node, or a {@link FaultyLink} in front of one). */
    static RedisClient newClient(HostAndPort address) {
        return newClient(address, ServerSecurity.NONE);
    }

    /** A new pooled client of {@code address}, a server (or a link to one) that lets clients in as {@code security} says. */
    static RedisClient newClient(HostAndPort address, ServerSecurity security) {
        return RedisClient.builder().hostAndPort(address).clientConfig(security.clientConfig()).build();
    }

    /** Whether a plain server at {@code address} answers PING within a short timeout. */
    static boolean answersPing(HostAndPort address) {
        return answersPing(address, ServerSecurity.NONE);
    }

    /** Whether a server at {@code address} that lets clients in as {@code security} says answers PING quickly. */
    static boolean answersPing(HostAndPort address, ServerSecurity security) {
        JedisClientConfig quick = security.clientConfig(Duration.ofMillis(200)).serverDefaultProtocol().build();
        try (Jedis probe = new Jedis(address, quick)) {
            return "PONG".equals(probe.ping());
        } catch (JedisException e) {
            return false;
        }
    }

    /** A single admin connection for set-up commands; the caller closes it. */
    default Jedis admin() {
        return new Jedis(address(), security().clientConfig(CLIENT_TIMEOUT).serverDefaultProtocol().build());
    }

    /**
     * {@code CLIENT KILL TYPE type}: the server drops every client connection of that type
     * ({@code normal} or {@code pubsub}); the server and its data stay. Returns how many it dropped.
     */
    default long killClients(String type) {
        try (Jedis admin = admin()) {
            // The admin connection is of type normal too: it may be dropped with the others, after the reply.
            return (Long) admin.sendCommand(Protocol.Command.CLIENT, "KILL", "TYPE", type,
                    "SKIPME", "yes");
        }
    }

    /** SIGKILL: the server dies at once, losing everything not on disk. */
    void kill();

    /** Starts a killed node again on the same port; with AOF on, it reloads what was fsynced. */
    void start();

    /** {@link #kill()} then {@link #start()}. */
    default void restart() {
        kill();
        start();
    }

    /** SIGSTOP: the server stalls, connections stay open, nothing is answered. */
    void pause();

    /** SIGCONT after {@link #pause()}. */
    void resume();

    /**
     * Makes this node a replica of {@code master}, through a {@link FaultyLink} the caller can cut
     * (the returned link is closed with this node).
     */
    FaultyLink replicaOf(RedisNode master);

    /** Waits until {@code replica} has everything this master has: a marker written here arrives there. */
    default void awaitReplicated(RedisNode replica, Duration within) {
        try (Jedis onMaster = admin(); Jedis onReplica = replica.admin()) {
            String marker = REPLICATION_MARKER + System.nanoTime();
            onMaster.set(marker, "1");
            Await.until(replica.label() + " catches up with " + label(), within, () -> {
                try {
                    return "1".equals(onReplica.get(marker));
                } catch (JedisException e) {
                    return false;
                }
            });
            onMaster.del(marker);
        }
    }

    /** {@code REPLICAOF NO ONE}: a replica becomes a master, with whatever it has. */
    default void promote() {
        try (Jedis admin = admin()) {
            admin.replicaofNoOne();
        }
    }

    /** Stops the node for good and removes its files. */
    @Override
    void close();
}
