package dev.lockstep.bench;

import dev.lockstep.testkit.fixture.RedisClusterFixture;
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
 * The Redis servers of one trial: independent {@code redis-server} processes started through
 * testkit's fixture, the masters of a Redis Cluster started the same way, or the servers named by
 * {@code -Dlockstep.redis.url=redis://host:port[,...]}. Each has one admin connection, opened up
 * front, that reads {@code INFO} for {@link #work()}.
 */
final class RedisServers implements AutoCloseable {

    /** The system property naming servers to use instead of starting them. */
    static final String URL_PROPERTY = "lockstep.redis.url";

    private final RedisFixture fixture;
    /** The Cluster these servers are the masters of, when started by {@link #cluster}. */
    private RedisClusterFixture cluster;
    private final List<RedisNode> nodes;
    private final List<HostAndPort> addresses;
    private final List<Jedis> admins = new ArrayList<>();
    /** Rounds of INFO requests so far, one per server each: what {@link ServerWork#parse} leaves out. */
    private long measurements;

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

    /**
     * The masters of a Redis Cluster of {@code masters} started here, whatever
     * {@code -Dlockstep.redis.url} says, in slot order: master i serves the i-th range of slots.
     */
    static RedisServers cluster(int masters) {
        RedisClusterFixture cluster = RedisClusterFixture.start(masters);
        try {
            RedisServers servers = new RedisServers(null, cluster.masters(),
                    cluster.masters().stream().map(RedisNode::address).toList());
            servers.cluster = cluster;
            return servers;
        } catch (RuntimeException e) {
            cluster.close();
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
        if (nodes.isEmpty()) {
            throw new IllegalStateException("servers named by -D" + URL_PROPERTY + " cannot be paused from here");
        }
        return nodes;
    }

    /** The work all servers have done so far, summed; one {@code INFO} request per server, not counted. */
    synchronized ServerWork work() {
        return workByServer().stream().reduce(ServerWork.NONE, ServerWork::plus);
    }

    /**
     * The work each server has done so far, in {@link #addresses()} order; one {@code INFO} request
     * each (and a {@code CLUSTER INFO} on a Cluster's masters), not counted.
     */
    synchronized List<ServerWork> workByServer() {
        measurements++;
        return admins.stream().map(admin -> cluster == null ? ServerWork.parse(admin.info("all"), measurements)
                : ServerWork.parse(admin.info("all"), admin.clusterInfo(), measurements)).toList();
    }

    /** The Cluster these servers are the masters of; fails unless they were started by {@link #cluster}. */
    RedisClusterFixture clusterFixture() {
        if (cluster == null) {
            throw new IllegalStateException("these servers are no Redis Cluster: " + addresses);
        }
        return cluster;
    }

    /** What runs the servers, for the log: the binary and its version, or the URLs given. */
    String description() {
        if (cluster != null) {
            return "a Redis Cluster of " + addresses.size() + " masters " + addresses;
        }
        return fixture == null ? "given servers " + addresses : fixture.description();
    }

    /** Closes the admin connections and stops the servers started here. */
    @Override
    public void close() {
        admins.forEach(Jedis::close);
        if (fixture != null) {
            fixture.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }
}
