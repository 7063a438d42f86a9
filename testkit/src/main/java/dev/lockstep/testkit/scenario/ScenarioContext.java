package dev.lockstep.testkit.scenario;

import dev.lockstep.LockOptions;
import dev.lockstep.Locks;
import dev.lockstep.testkit.client.ClientProcess;
import dev.lockstep.testkit.client.Threads;
import dev.lockstep.testkit.fault.FaultyLink;
import dev.lockstep.testkit.fixture.NodeConfig;
import dev.lockstep.testkit.fixture.RedisFixture;
import dev.lockstep.testkit.fixture.RedisNode;
import dev.lockstep.testkit.history.Actor;
import dev.lockstep.testkit.history.History;
import dev.lockstep.testkit.stage.Stage;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.RedisClient;

/**
 * Everything one scenario run uses, all released by {@link #close()}: fresh Redis nodes (or a
 * ZooKeeper ensemble), the stage's clients as {@link Actor actors} and {@link ClientProcess child
 * JVMs}, background threads, and the {@link History} they all write to.
 */
public final class ScenarioContext implements AutoCloseable {

    /**
     * The lock a scenario takes before its story to open a client's connections, as in a running
     * service. Timelines treat its key as the fixture's own.
     */
    public static final String WARM_UP_LOCK = "warm-up";

    private final Stage stage;
    private final RedisFixture fixture;
    private final History history = new History();
    private final Deque<AutoCloseable> resources = new ArrayDeque<>();
    private final List<RedisWatch> watches = new ArrayList<>();
    private final ExecutorService threads = Executors.newCachedThreadPool(Threads.factory("lockstep-scenario"));
    private List<RedisNode> nodes;
    private WatchedEnsemble ensemble;
    private List<String> keyColumns = List.of();

    /** A context for running scenarios of {@code stage} on nodes from {@code fixture}. */
    public ScenarioContext(Stage stage, RedisFixture fixture) {
        this.stage = stage;
        this.fixture = fixture;
    }

    /** The stage under test. */
    public Stage stage() {
        return stage;
    }

    /** The recorded history. */
    public History history() {
        return history;
    }

    /**
     * The scenario's Redis nodes, one per master the stage uses, started on first use, their key
     * expiries and deletions watched into the history.
     */
    public List<RedisNode> nodes() {
        return nodes(NodeConfig.defaults());
    }

    /** {@link #nodes()}, started with {@code config} if this is the first call. */
    public synchronized List<RedisNode> nodes(NodeConfig config) {
        if (nodes == null) {
            List<RedisNode> started = new ArrayList<>();
            for (int i = 1; i <= stage.nodeCount(); i++) {
                RedisNode node = startNode(config);
                watch(node, stage.multiNode() ? "n" + i : "master");
                started.add(node);
            }
            nodes = List.copyOf(started);
        }
        return nodes;
    }

    /**
     * Draws each of {@code keys} in a column of its own, rather than one column per node, for a story
     * over several names: a node's column shows one owner at a time. A row has no room for every key on
     * each of several masters, so there the columns show the first node's keys ({@code n1:inventory})
     * and the other nodes' events on them are left out. Call before {@link #nodes()}.
     */
    public synchronized void keyColumns(String... keys) {
        if (nodes != null) {
            throw new IllegalStateException("the nodes are watched already");
        }
        keyColumns = List.of(keys);
    }

    /** The first of {@link #nodes()}: the only one of a single-node stage. */
    public RedisNode node() {
        return nodes().get(0);
    }

    /** Another fresh node, stopped with this context. */
    public synchronized RedisNode startNode(NodeConfig config) {
        RedisNode started = fixture.start(config);
        resources.push(started);
        return started;
    }

    /**
     * A fresh replica of {@code master}, watched as {@code replica},
     * replicating through a {@link FaultyLink} (so replication can lag or go dark), and caught up
     * within {@code catchUp}.
     */
    public Replica replicate(RedisNode master, Duration catchUp) {
        RedisNode replica = startNode(NodeConfig.defaults());
        watch(replica, "replica");
        FaultyLink link = replica.replicaOf(master);
        master.awaitReplicated(replica, catchUp);
        return new Replica(replica, link);
    }

    /** A {@link FaultyLink} in front of {@code node}, closed with this context. */
    public synchronized FaultyLink link(RedisNode node) {
        FaultyLink link = FaultyLink.to(node.address());
        resources.push(link);
        return link;
    }

    /** One {@link FaultyLink} in front of each of {@link #nodes()}. */
    public List<FaultyLink> links() {
        return nodes().stream().map(this::link).toList();
    }

    /**
     * Records what {@code node} does to lock keys in the history, as node {@code name}: who it stores
     * the key for, renewals, expiries, deletions. A node restarted on the same port is still watched.
     */
    public synchronized void watch(RedisNode node, String name) {
        RedisWatch watch = new RedisWatch(node, name, history, WARM_UP_LOCK,
                KeyColumns.forWatch(keyColumns, watches.isEmpty(), name, stage.multiNode()));
        watches.add(watch);
        resources.push(watch);
    }

    /**
     * The scenario's ZooKeeper ensemble, for a stage whose locks live there: three servers, started
     * on first use, their lock nodes watched into the history.
     */
    public synchronized WatchedEnsemble ensemble() {
        if (ensemble == null) {
            ensemble = new WatchedEnsemble(history);
            resources.push(ensemble);
        }
        return ensemble;
    }

    /**
     * A client called {@code name} on the stage's servers: {@link #nodes()}, or the {@link #ensemble()};
     * with no lock at all, an actor that only reads and writes.
     */
    public Actor actor(String name, LockOptions options) {
        return switch (stage.ground()) {
            case ZOOKEEPER -> actorOn(name, stage.open(ensemble().connectString(), options), options);
            case NONE -> new Actor(name, null, options.lease(), history);
            case REDIS, REDIS_MASTERS -> actor(name, addresses(nodes()), options);
        };
    }

    /** A client called {@code name} that reaches the nodes only through {@code links}, so their faults are its alone. */
    public Actor actorBehind(String name, List<FaultyLink> links, LockOptions options) {
        return actor(name, links.stream().map(FaultyLink::address).toList(), options);
    }

    /** A client called {@code name} connected to {@code addresses} (nodes, or {@link FaultyLink}s in front of them). */
    public synchronized Actor actor(String name, List<HostAndPort> addresses, LockOptions options) {
        List<RedisClient> clients = new ArrayList<>();
        for (HostAndPort address : addresses) {
            RedisClient redis = RedisNode.newClient(address, fixture.security());
            resources.push(redis);
            clients.add(redis);
        }
        return actorOn(name, stage.open(clients, options), options);
    }

    private synchronized Actor actorOn(String name, Locks locks, LockOptions options) {
        resources.push(locks);
        history.client(Actor.laneOf(name), locks.clientId());
        return new Actor(name, locks, options.lease(), history);
    }

    /** Where clients connect to each of {@code nodes}. */
    public static List<HostAndPort> addresses(List<RedisNode> nodes) {
        return nodes.stream().map(RedisNode::address).toList();
    }

    /** A client called {@code name} in its own JVM on the stage's servers, so it can really crash or pause. */
    public synchronized ClientProcess process(String name, LockOptions options) {
        List<HostAndPort> servers = switch (stage.ground()) {
            case ZOOKEEPER -> Arrays.stream(ensemble().connectString().split(",")).map(HostAndPort::from).toList();
            case NONE -> List.of();
            case REDIS, REDIS_MASTERS -> addresses(nodes());
        };
        ClientProcess process = new ClientProcess(name, stage, servers, fixture.security(), options, history);
        resources.push(process);
        return process;
    }

    /** Runs {@code task} on its own thread, as another client acting at the same time. */
    public <T> Future<T> background(Callable<T> task) {
        return threads.submit(task);
    }

    /** The result of a background task, failing if it does not finish within {@code within}. */
    public <T> T await(Future<T> task, Duration within) throws Exception {
        try {
            return task.get(within.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        } catch (TimeoutException e) {
            task.cancel(true);
            throw new IllegalStateException("a scenario client did not finish within " + within.toMillis() + " ms", e);
        }
    }

    /** Stops the scenario's threads, lets the history hear the nodes' last key events, then releases everything. */
    @Override
    public synchronized void close() {
        threads.shutdownNow();
        try {
            threads.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        watches.forEach(RedisWatch::catchUp);
        while (!resources.isEmpty()) {
            try {
                resources.pop().close();
            } catch (Exception e) {
                // Keep closing the rest: a dead node or client must not leak the others.
            }
        }
    }
}
