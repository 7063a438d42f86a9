package dev.lockstep.testkit;

import org.opentest4j.TestAbortedException;
import org.testcontainers.DockerClientFactory;

/**
 * Nodes as {@code redis:7} containers ({@code -Dlockstep.redis=docker}). Without a Docker engine the
 * constructor aborts the calling test, so JUnit reports it skipped rather than failed.
 */
final class DockerRedisFixture extends NodeFixture {

    /** Checks for a Docker engine; without one, throws JUnit's assumption failure. */
    DockerRedisFixture() {
        if (!DockerClientFactory.instance().isDockerAvailable()) {
            throw new TestAbortedException("Docker is not available, so the -Dlockstep.redis=docker tests are skipped;"
                    + " the default process fixture (-Dlockstep.redis=process) needs only a JDK");
        }
    }

    /** A new {@code redis:7} container on a fixed free host port. */
    @Override
    protected RedisNode newNode(NodeConfig config) {
        return new ContainerRedisNode(config);
    }

    /** The image and how it runs. */
    @Override
    public String description() {
        return "docker " + ContainerRedisNode.IMAGE + " (Testcontainers)";
    }
}
