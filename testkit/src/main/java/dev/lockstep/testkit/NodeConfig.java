package dev.lockstep.testkit;

/**
 * How a fixture starts a node.
 *
 * @param aof append-only file with {@code appendfsync always}: a restart reloads every acknowledged write
 */
public record NodeConfig(boolean aof) {

    /** No persistence: a restart comes back empty. */
    public static NodeConfig defaults() {
        return new NodeConfig(false);
    }

    /** A copy with AOF ({@code appendfsync always}) on. */
    public NodeConfig withAof() {
        return new NodeConfig(true);
    }
}
