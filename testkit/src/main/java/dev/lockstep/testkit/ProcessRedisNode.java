package dev.lockstep.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.exceptions.JedisException;

/**
 * A {@code redis-server} child process on a free loopback port.
 *
 * <p>No server outlives the JVM: a shutdown hook kills every live node, and each server has a
 * tiny shell watchdog that SIGKILLs it once the JVM is gone, even after {@code kill -9} of the JVM.
 * Its port is reserved machine-wide for the node's life ({@link PortReservation}).
 */
final class ProcessRedisNode implements RedisNode {

    private static final String HOST = "127.0.0.1";
    private static final Duration STARTUP = Duration.ofSeconds(10);
    private static final Set<ProcessRedisNode> LIVE = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> LIVE.forEach(ProcessRedisNode::destroy),
                "lockstep-redis-reaper"));
    }

    private final RedisBinary binary;
    private final NodeConfig config;
    private final ServerSecurity security;
    private final Path dir;
    private final List<FaultyLink> links = new ArrayList<>();
    private volatile PortReservation reservation;
    private volatile Process process;

    ProcessRedisNode(RedisBinary binary, NodeConfig config, ServerSecurity security) {
        this.binary = binary;
        this.config = config;
        this.security = security;
        try {
            this.dir = Files.createTempDirectory("lockstep-redis");
            if (config.configFile() != null) {
                // Written once: Sentinel rewrites its file with what it learns, and a restart keeps that.
                Files.writeString(configPath(), config.configFile(), StandardCharsets.UTF_8);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        LIVE.add(this);
        startOnFreePort();
    }

    @Override
    public HostAndPort address() {
        return new HostAndPort(HOST, reservation.port());
    }

    @Override
    public ServerSecurity security() {
        return security;
    }

    @Override
    public synchronized void kill() {
        Process p = process;
        if (p != null && p.isAlive()) {
            p.destroyForcibly();
            waitFor(p);
        }
    }

    @Override
    public synchronized void start() {
        if (process != null && process.isAlive()) {
            throw new IllegalStateException(label() + " is already running");
        }
        process = launch(reservation.port());
        awaitReady(process);
    }

    @Override
    public void pause() {
        Signals.stop(running());
    }

    @Override
    public void resume() {
        Signals.resume(running());
    }

    private Process running() {
        Process p = process;
        if (p == null || !p.isAlive()) {
            throw new IllegalStateException(label() + " is not running");
        }
        return p;
    }

    @Override
    public synchronized FaultyLink replicaOf(RedisNode master) {
        FaultyLink link = FaultyLink.to(master.address());
        links.add(link);
        try (Jedis admin = admin()) {
            admin.replicaof(link.address().getHost(), link.address().getPort());
        }
        return link;
    }


    @Override
    public synchronized void close() {
        LIVE.remove(this);
        try {
            links.forEach(FaultyLink::close);
            links.clear();
        } finally {
            destroy();
            deleteDir();
            PortReservation held = reservation;
            if (held != null) {
                held.close();
            }
        }
    }

    @Override
    public String toString() {
        return label();
    }

    private void destroy() {
        Process p = process;
        if (p != null) {
            p.destroyForcibly();
            waitFor(p);
        }
    }

    private void startOnFreePort() {
        long deadline = System.nanoTime() + STARTUP.toNanos();
        RuntimeException last = null;
        while (System.nanoTime() < deadline) {
            PortReservation candidate = PortReservation.any(HOST, config.cluster());
            Process p = launch(candidate.port());
            try {
                awaitReady(p, candidate.port());
                reservation = candidate;
                process = p;
                return;
            } catch (RuntimeException e) {
                // A process that does not reserve ports took it between our probe and the server's bind: try another.
                p.destroyForcibly();
                waitFor(p);
                candidate.close();
                last = e;
            }
        }
        throw new IllegalStateException("could not start redis-server within " + STARTUP, last);
    }

    private Process launch(int onPort) {
        if (!config.aof()) {
            // Replication writes dump.rdb even with saving off; without AOF a restart must come back empty.
            deleteIfPresent(dir.resolve("dump.rdb"));
        }
        List<String> command = new ArrayList<>(List.of(binary.path().toString()));
        if (config.configFile() != null) {
            command.add(configPath().toString());
        }
        command.addAll(security.serverArgs(onPort));
        command.addAll(List.of(
                "--bind", HOST,
                "--protected-mode", "no",
                "--daemonize", "no",
                "--save", "",
                "--dir", dir.toString(),
                "--hz", "100",
                "--logfile", dir.resolve("redis-" + onPort + ".log").toString()));
        if (config.aof()) {
            command.addAll(List.of("--appendonly", "yes", "--appendfsync", "always"));
        } else {
            command.addAll(List.of("--appendonly", "no"));
        }
        if (config.cluster()) {
            // Relative to --dir, so each node keeps its own cluster state across restarts.
            command.addAll(List.of("--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf"));
        }
        command.addAll(config.args());
        try {
            Process p = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
            watchParent(p);
            return p;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + binary.path(), e);
        }
    }

    /**
     * A shell that SIGKILLs the server once this JVM is gone (the shutdown hook cannot run after
     * kill -9): it reads its standard input, a pipe this JVM holds open, and the read ends when the
     * JVM's end of the pipe closes, which the operating system does however the JVM dies. It waits
     * without polling, so hundreds of servers cost no process starts; it ends with its server.
     */
    private static void watchParent(Process server) throws IOException {
        Process watcher = new ProcessBuilder("sh", "-c", "read -r _; kill -9 \"$1\" 2>/dev/null", "watcher",
                Long.toString(server.pid()))
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        // Referenced until the server ends, so its pipe is never closed by a collection of the Process object.
        server.onExit().thenRun(watcher::destroyForcibly);
    }

    private void awaitReady(Process p) {
        awaitReady(p, reservation.port());
    }

    private void awaitReady(Process p, int onPort) {
        long deadline = System.nanoTime() + STARTUP.toNanos();
        while (!answersAs(p, onPort)) {
            if (!p.isAlive()) {
                throw new IllegalStateException("redis-server on port " + onPort + " exited with " + p.exitValue()
                        + "; see " + dir.resolve("redis-" + onPort + ".log"));
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("redis-server on port " + onPort + " did not answer within " + STARTUP);
            }
            sleep(Duration.ofMillis(10));
        }
    }

    /**
     * Whether {@code p} itself answers on {@code onPort}: with test JVMs starting servers side by side,
     * another JVM's server may have taken the port first, and its PONG must not pass for ours.
     */
    private boolean answersAs(Process p, int onPort) {
        JedisClientConfig quick = security.clientConfig(Duration.ofMillis(200)).serverDefaultProtocol().build();
        try (Jedis probe = new Jedis(new HostAndPort(HOST, onPort), quick)) {
            return probe.info("server").lines().anyMatch(("process_id:" + p.pid())::equals);
        } catch (JedisException e) {
            return false;
        }
    }

    private Path configPath() {
        return dir.resolve("redis.conf");
    }

    private static void waitFor(Process p) {
        try {
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                throw new IllegalStateException("redis-server " + p.pid() + " did not die after SIGKILL");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting redis-server", e);
        }
    }

    private static void deleteIfPresent(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot clear " + file, e);
        }
    }

    private void deleteDir() {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            // Temp files only; the OS cleans the temp dir eventually.
        }
    }
}
