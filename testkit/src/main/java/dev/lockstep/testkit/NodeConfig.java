package dev.lockstep.testkit;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * How a fixture starts a node.
 *
 * <p>Beyond {@link #aof()}, the settings are for {@code redis-server} processes (the default
 * fixture, {@link RedisClusterFixture} and {@link SentinelFixture}); the Docker fixture uses only
 * {@link #aof()}.
 *
 * @param aof        append-only file with {@code appendfsync always}: a restart reloads every acknowledged write
 * @param cluster    {@code cluster-enabled yes}, on a port whose cluster bus port (port + 10000) is free too
 * @param args       extra command-line options appended after the fixture's own, e.g.
 *                   {@code --cluster-node-timeout 2000} or {@code --sentinel}
 * @param configFile text of a config file written once into the node's directory and passed as
 *                   the first argument (Sentinel needs one it can rewrite), or null for none
 */
public record NodeConfig(boolean aof, boolean cluster, List<String> args, String configFile) {

    /** Copies {@code args}, so a config cannot change under a running node. */
    public NodeConfig {
        args = List.copyOf(Objects.requireNonNull(args, "args must not be null"));
    }

    /** A plain node, with or without AOF. */
    public NodeConfig(boolean aof) {
        this(aof, false, List.of(), null);
    }

    /** No persistence: a restart comes back empty. */
    public static NodeConfig defaults() {
        return new NodeConfig(false);
    }

    /** A copy with AOF ({@code appendfsync always}) on. */
    public NodeConfig withAof() {
        return new NodeConfig(true, cluster, args, configFile);
    }

    /** A copy with cluster mode on ({@code cluster-enabled yes}, {@code nodes.conf} in the node's directory). */
    public NodeConfig withCluster() {
        return new NodeConfig(aof, true, args, configFile);
    }

    /** A copy with {@code more} command-line options after the ones already there. */
    public NodeConfig withArgs(String... more) {
        List<String> all = new ArrayList<>(args);
        all.addAll(List.of(more));
        return new NodeConfig(aof, cluster, all, configFile);
    }

    /** A copy that starts from a config file with {@code text}. */
    public NodeConfig withConfigFile(String text) {
        return new NodeConfig(aof, cluster, args, Objects.requireNonNull(text, "text must not be null"));
    }
}
