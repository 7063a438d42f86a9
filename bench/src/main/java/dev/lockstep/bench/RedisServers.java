package dev.lockstep.bench;

import dev.lockstep.testkit.fixture.RedisFixture;
import dev.lockstep.testkit.fixture.RedisNode;
import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;

/**
 * The independent Redis servers of one trial: real {@code redis-server} processes started through
 * testkit's fixture, or the servers named by {@code -Dlockstep.redis.url=redis://host:port[,...]}.
 * Each has one admin connection, opened up front, that reads {@code INFO} for {@link #work()}.
 */
final class RedisServers implements AutoCloseable {

    /** The system property naming servers to use instead of starting them. */
    static final String URL_PROPERTY = "lockstep.redis.url";

    private final RedisFixture fixture;
    private final List<RedisNode> nodes;
    private final List<HostAndPort> addresses;
    private final List<Jedis> admins = new ArrayList<>();
    private long infoRequests;

    private RedisServers(RedisFixture fixture, List<RedisNode> nodes, List<HostAndPort> addresses) {
        this.fixture = fixture;
        this.nodes = nodes;
        this.addresses = addresses;
        for (HostAndPort address : addresses) {
            admins.add(new Jedis(address, DefaultJedisClientConfig.builder()
                    .socketTimeoutMillis((int) RedisNode.CLIENT_TIMEOUT.toMillis())
                    .serverDefaultProtocol()
                    .build()));
        }
    }

    /** {@code count} servers: the first of {@code -Dlockstep.redis.url} when given, else started here. */
    static RedisServers use(int count) {
        String urls = System.getProperty(URL_PROPERTY, "");
        if (urls.isBlank()) {
            return start(count);
        }
        List<HostAndPort> given = Arrays.stream(urls.split(",")).map(String::strip).map(RedisServers::parse).toList();
        if (given.size() < count) {
            throw new IllegalStateException("this benchmark needs " + count + " independent servers, -D" + URL_PROPERTY
                    + " names " + given.size() + ": " + urls);
        }
        return new RedisServers(null, List.of(), given.subList(0, count));
    }

    /** {@code count} servers started here, whatever {@code -Dlockstep.redis.url} says: only these can be paused. */
    static RedisServers start(int count) {
        RedisFixture fixture = RedisFixture.processes();
        try {
            List<RedisNode> nodes = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                nodes.add(fixture.start());
            }
            return new RedisServers(fixture, nodes, nodes.stream().map(RedisNode::address).toList());
        } catch (RuntimeException e) {
            fixture.close();
            throw e;
        }
    }

    private static HostAndPort parse(String url) {
        URI uri = URI.create(url);
        if (!"redis".equals(uri.getScheme()) || uri.getHost() == null || uri.getPort() < 0) {
            throw new IllegalArgumentException("-D" + URL_PROPERTY + " takes redis://host:port, was " + url);
        }
        return new HostAndPort(uri.getHost(), uri.getPort());
    }

    /** Where server {@code index} listens. */
    HostAndPort address(int index) {
        return addresses.get(index);
    }

    /** Where every server listens. */
    List<HostAndPort> addresses() {
        return addresses;
    }

    /** SIGSTOPs server {@code index}: it stalls with its connections open, as a frozen machine would. */
    void pause(int index) {
        startedHere().get(index).pause();
    }

    /** Thaws a {@link #pause paused} server. */
    void resume(int index) {
        startedHere().get(index).resume();
    }

    private List<RedisNode> startedHere() {
        if (fixture == null) {
            throw new IllegalStateException("servers named by -D" + URL_PROPERTY + " cannot be paused from here");
        }
        return nodes;
    }

    /** The work all servers have done so far, summed; one {@code INFO} request per server, not counted. */
    synchronized ServerWork work() {
        infoRequests++;
        ServerWork total = ServerWork.NONE;
        for (Jedis admin : admins) {
            total = total.plus(ServerWork.parse(admin.info("all"), infoRequests));
        }
        return total;
    }

    /** What runs the servers, for the log: the binary and its version, or the URLs given. */
    String description() {
        return fixture == null ? "given servers " + addresses : fixture.description();
    }

    /** Closes the admin connections and stops the servers started here. */
    @Override
    public void close() {
        admins.forEach(Jedis::close);
        if (fixture != null) {
            fixture.close();
        }
    }
}
