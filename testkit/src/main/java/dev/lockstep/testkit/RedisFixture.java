package dev.lockstep.testkit;

import java.util.Locale;

/**
 * Starts real Redis nodes and stops them all at {@link #close()}. {@code -Dlockstep.redis=docker}
 * starts them in containers (Testcontainers); the default starts {@code redis-server} processes.
 */
public interface RedisFixture extends AutoCloseable {

    /** The fixture {@code -Dlockstep.redis} asks for: {@code process} (default) or {@code docker}. */
    static RedisFixture fromSystemProperty() {
        String kind = System.getProperty("lockstep.redis", "process");
        return switch (kind.isBlank() ? "process" : kind) {
            case "process" -> processes();
            case "docker" -> new DockerRedisFixture();
            default -> throw new IllegalArgumentException("-Dlockstep.redis must be process or docker, was " + kind);
        };
    }

    /** Nodes as {@code redis-server} child processes, of {@link RedisBinary#get()}. */
    static RedisFixture processes() {
        return processes(ServerSecurity.NONE);
    }

    /** Nodes as child processes of {@code binary}. */
    static RedisFixture processes(RedisBinary binary) {
        return new ProcessFixture(binary, ServerSecurity.NONE);
    }

    /** Nodes as {@code redis-server} child processes that let clients in as {@code security} says. */
    static RedisFixture processes(ServerSecurity security) {
        return new ProcessFixture(RedisBinary.get(), security);
    }

    /** How this fixture's nodes let clients in; clients of its nodes, or of links to them, must follow it. */
    default ServerSecurity security() {
        return ServerSecurity.NONE;
    }

    /** A new node with default settings. */
    default RedisNode start() {
        return start(NodeConfig.defaults());
    }

    /** A new node. */
    RedisNode start(NodeConfig config);

    /** What runs the nodes, for logs: binary and version, or image. */
    String description();

    /** Stops every node this fixture started. */
    @Override
    void close();

    /** The default fixture: child processes of this JVM. */
    final class ProcessFixture extends NodeFixture {

        private final RedisBinary binary;
        private final ServerSecurity security;

        private ProcessFixture(RedisBinary binary, ServerSecurity security) {
            if (security == ServerSecurity.TLS && !binary.supportsTls()) {
                throw new IllegalStateException("redis-server " + binary.version() + " at " + binary.path()
                        + " was built without TLS");
            }
            this.binary = binary;
            this.security = security;
        }

        @Override
        protected RedisNode newNode(NodeConfig config) {
            return new ProcessRedisNode(binary, config, security);
        }

        @Override
        public ServerSecurity security() {
            return security;
        }

        @Override
        public String description() {
            return "redis-server " + binary.version() + " (" + binary.source() + ")"
                    + (security == ServerSecurity.NONE ? "" : ", " + security.name().toLowerCase(Locale.ROOT));
        }
    }
}
