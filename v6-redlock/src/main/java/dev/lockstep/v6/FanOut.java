package dev.lockstep.v6;

import dev.lockstep.internal.LuaScript;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import redis.clients.jedis.Connection;
import redis.clients.jedis.UnifiedJedis;

/**
 * Sends one request to every node at once and collects what came back within one node timeout.
 * A stalled node costs that timeout, never a lease: its answer, if it ever comes, is ignored,
 * and what this client sends it next waits until it has run (see {@link Lane}). Each reply is a
 * {@link Reply}: answered, failed, or not awaited.
 */
final class FanOut implements AutoCloseable {

    private final List<Lane> lanes = new ArrayList<>();
    private final Duration nodeTimeout;

    FanOut(List<UnifiedJedis> nodes, Duration nodeTimeout, String threadName) {
        this.nodeTimeout = nodeTimeout;
        for (int i = 0; i < nodes.size(); i++) {
            lanes.add(new Lane(nodes.get(i), threadName + "-n" + (i + 1)));
        }
    }

    /** A script call, the same on every node, for {@code owner}: one owner's requests to a node run in order. */
    record Request(String owner, LuaScript script, List<String> keys, List<String> args) {

        Object run(UnifiedJedis node) {
            return script.run(node, keys, args);
        }

        void send(Connection connection) {
            script.send(connection, keys, args);
        }

        Object read(Connection connection) {
            return script.read(connection, keys, args);
        }
    }

    /** What a request queued behind a stalled node does if its round has given up on the node before it leaves. */
    enum WhenLate {
        /** Stays unsent: a lock or a renewal nobody waits for any more would only leave a late grant. */
        DROP,
        /** Goes anyway: an unlock must follow whatever this owner sent the node before. */
        SEND
    }

    /** How many nodes there are. */
    int size() {
        return lanes.size();
    }

    /**
     * Sends {@code request} to every node, then reads the replies, in node order, each within the
     * node timeout. An interrupt does not cut a round short (half a round would leave grants
     * nobody counted); it stays set for the caller's next wait.
     */
    List<Reply> ask(Request request, WhenLate whenLate) {
        long deadline = System.nanoTime() + nodeTimeout.toNanos();
        List<Call> calls = new ArrayList<>();
        for (Lane lane : lanes) {
            calls.add(lane.ask(request, deadline, whenLate));
        }
        List<Reply> replies = new ArrayList<>();
        for (Call call : calls) {
            replies.add(call.await());
        }
        return replies;
    }

    /**
     * Sends {@code request} to the nodes {@code which} selects, for its effect: nodes that answer
     * at once are waited for (at most one node timeout), a stalled node gets it queued behind the
     * request it has not answered.
     */
    void tell(List<Boolean> which, Request request) {
        long deadline = System.nanoTime() + nodeTimeout.toNanos();
        List<Call> calls = new ArrayList<>();
        for (int i = 0; i < lanes.size(); i++) {
            if (which.get(i)) {
                calls.add(lanes.get(i).tell(request, deadline));
            }
        }
        calls.forEach(Call::await);
    }

    /** How many requests wait on, or run on, each node's lane, in node order. */
    List<Integer> queuedRequests() {
        return lanes.stream().map(Lane::requests).toList();
    }

    /** Stops the lanes; requests stuck on a dead node end with their socket timeout. */
    @Override
    public void close() {
        lanes.forEach(Lane::close);
    }
}
