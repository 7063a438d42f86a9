package dev.lockstep.testkit;

import java.util.ArrayList;
import java.util.List;
import org.opentest4j.TestAbortedException;
import org.testcontainers.DockerClientFactory;

/**
 * Nodes as {@code redis:7} containers ({@code -Dlockstep.redis=docker}). Without a Docker engine the
 * constructor aborts the calling test, so JUnit reports it skipped rather than failed.
 */
final class DockerRedisFixture implements RedisFixture {

    private final List<RedisNode> nodes = new ArrayList<>();

    /** Checks for a Docker engine; without one, throws JUnit's assumption failure. */
    DockerRedisFixture() {
        if (!DockerClientFactory.instance().isDockerAvailable()) {
            throw new TestAbortedException("Docker is not available, so the -Dlockstep.redis=docker tests are skipped;"
                    + " the default process fixture (-Dlockstep.redis=process) needs only a JDK");
        }
    }

    /** A new {@code redis:7} container on a fixed free host port. */
    @Override
    public synchronized RedisNode start(NodeConfig config) {
        RedisNode node = new ContainerRedisNode(config);
        nodes.add(node);
        return node;
    }

    /** The image and how it runs. */
    @Override
    public String description() {
        return "docker " + ContainerRedisNode.IMAGE + " (Testcontainers)";
    }

    /** Stops every container, even if stopping one of them fails. */
    @Override
    public synchronized void close() {
        RuntimeException failure = null;
        for (RedisNode node : nodes) {
            try {
                node.close();
            } catch (RuntimeException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        nodes.clear();
        if (failure != null) {
            throw failure;
        }
    }
}
