package dev.lockstep.testkit;

/** Placeholder: being written (see helper task). */
final class DockerRedisFixture implements RedisFixture {
    @Override public RedisNode start(NodeConfig config) { throw new UnsupportedOperationException(); }
    @Override public String description() { return "docker"; }
    @Override public void close() { }
}
