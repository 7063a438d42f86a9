package dev.lockstep.testkit;

import java.util.ArrayList;
import java.util.List;

/** A fixture that owns the nodes it starts, and stops them all at close. */
abstract class NodeFixture implements RedisFixture {

    private final List<RedisNode> nodes = new ArrayList<>();

    /** Starts one node of this fixture's kind. */
    protected abstract RedisNode newNode(NodeConfig config);

    /** Starts a node; tests and scenarios that share the fixture start theirs at the same time. */
    @Override
    public final RedisNode start(NodeConfig config) {
        RedisNode node = newNode(config);
        synchronized (this) {
            nodes.add(node);
        }
        return node;
    }

    /** Stops every node, even if stopping one of them fails: one stuck node must not leave the rest running. */
    @Override
    public final synchronized void close() {
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
