package dev.lockstep.testkit;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.InspectContainerResponse.ContainerState;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.testcontainers.Testcontainers;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.utility.DockerImageName;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;

/**
 * A {@code redis:7} container: the same node as {@link ProcessRedisNode}, with Docker doing the faults.
 *
 * <p>No container outlives the JVM: Testcontainers' reaper (Ryuk) removes them when the JVM is gone.
 */
final class ContainerRedisNode implements RedisNode {

    static final String IMAGE = "redis:7";
    private static final int REDIS_PORT = 6379;
    private static final Duration STARTUP = Duration.ofSeconds(60);
    private static final Duration RESTART = Duration.ofSeconds(10);
    private static final int PORT_ATTEMPTS = 5;

    private final GenericContainer<?> container;
    private final HostAndPort address;
    private final List<FaultyLink> links = new ArrayList<>();

    ContainerRedisNode(NodeConfig config) {
        this.container = startOnFreePort(config);
        this.address = new HostAndPort(container.getHost(), container.getMappedPort(REDIS_PORT));
    }

    /** The Docker host and the node's fixed host port. */
    @Override
    public HostAndPort address() {
        return address;
    }

    /** {@code docker kill}: SIGKILL to the server. */
    @Override
    public synchronized void kill() {
        // Docker counts a paused container as running; the daemon kills it too (SIGKILL, then thaw) and waits for exit.
        if (isRunning()) {
            docker().killContainerCmd(id()).withSignal("KILL").exec();
        }
    }

    /** {@code docker start} of the same container: same address, and the AOF if it was on. */
    @Override
    public synchronized void start() {
        if (isRunning()) {
            throw new IllegalStateException(label() + " is already running");
        }
        // Same container: same fixed host port, same /data volume (so the AOF is still there).
        docker().startContainerCmd(id()).exec();
        awaitReady();
    }

    /** {@code docker pause}: the cgroup freezer stalls the server. */
    @Override
    public synchronized void pause() {
        requireRunning();
        // cgroup freezer: like SIGSTOP, sockets stay open and the kernel keeps buffering what arrives.
        docker().pauseContainerCmd(id()).exec();
    }

    /** {@code docker unpause}. */
    @Override
    public synchronized void resume() {
        requireRunning();
        docker().unpauseContainerCmd(id()).exec();
    }

    /** {@code REPLICAOF host.testcontainers.internal <link port>}, through a host-side {@link FaultyLink}. */
    @Override
    public synchronized FaultyLink replicaOf(RedisNode master) {
        FaultyLink link = FaultyLink.to(master.address());
        links.add(link);
        int port = link.address().getPort();
        // The link listens in this JVM; Testcontainers tunnels host.testcontainers.internal:port back to it.
        Testcontainers.exposeHostPorts(port);
        try (Jedis admin = admin()) {
            admin.replicaof(GenericContainer.INTERNAL_HOST_HOSTNAME, port);
        }
        return link;
    }


    /** Stops and removes the container, and closes its links. */
    @Override
    public synchronized void close() {
        try {
            container.stop();
        } finally {
            links.forEach(FaultyLink::close);
            links.clear();
        }
    }

    @Override
    public String toString() {
        return label();
    }

    private static GenericContainer<?> startOnFreePort(NodeConfig config) {
        RuntimeException last = null;
        for (int attempt = 0; attempt < PORT_ATTEMPTS; attempt++) {
            GenericContainer<?> candidate = newContainer(config, freePort());
            try {
                candidate.start();
                return candidate;
            } catch (RuntimeException e) {
                candidate.stop();
                if (!portTaken(e)) {
                    throw e;
                }
                // Someone took the port between our probe and Docker's bind: try another.
                last = e;
            }
        }
        throw new IllegalStateException("could not start a " + IMAGE + " container after " + PORT_ATTEMPTS + " attempts", last);
    }

    private static GenericContainer<?> newContainer(NodeConfig config, int hostPort) {
        List<String> command = new ArrayList<>(List.of("redis-server",
                "--protected-mode", "no",
                "--save", "",
                "--hz", "100"));
        if (config.aof()) {
            command.addAll(List.of("--appendonly", "yes", "--appendfsync", "always"));
        } else {
            command.addAll(List.of("--appendonly", "no"));
        }
        GenericContainer<?> container = new GenericContainer<>(DockerImageName.parse(IMAGE))
                .withCommand(command.toArray(String[]::new))
                .withExposedPorts(REDIS_PORT)
                // host.testcontainers.internal is only added to a container at creation, so every node gets it
                // in case it later becomes a replica behind a FaultyLink.
                .withAccessToHost(true)
                .waitingFor(Wait.forLogMessage(".*Ready to accept connections.*\\n", 1))
                .withStartupTimeout(STARTUP);
        // A fixed host port, not Docker's random one: a random one changes on every start, and kill() then
        // start() must keep the address clients and links already use.
        container.setPortBindings(List.of(hostPort + ":" + REDIS_PORT));
        return container;
    }

    /** Docker's words for a host port in use: "port is already allocated", "address already in use". */
    private static boolean portTaken(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            String message = String.valueOf(t.getMessage());
            if (message.contains("already allocated") || message.contains("already in use")) {
                return true;
            }
        }
        return false;
    }

    private void awaitReady() {
        long deadline = System.nanoTime() + RESTART.toNanos();
        // Docker's port proxy accepts before Redis listens: the connection resets until it is up.
        while (!RedisNode.answersPing(address)) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(label() + " did not answer within " + RESTART + " of a restart");
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while restarting " + label(), e);
            }
        }
    }

    private void requireRunning() {
        if (!isRunning()) {
            throw new IllegalStateException(label() + " is not running");
        }
    }

    private boolean isRunning() {
        ContainerState state = docker().inspectContainerCmd(id()).exec().getState();
        return Boolean.TRUE.equals(state.getRunning());
    }

    private DockerClient docker() {
        return container.getDockerClient();
    }

    private String id() {
        return container.getContainerId();
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
