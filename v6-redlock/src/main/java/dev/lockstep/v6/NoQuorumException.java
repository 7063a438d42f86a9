package dev.lockstep.v6;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import redis.clients.jedis.exceptions.JedisConnectionException;

/**
 * Too few nodes answered a round of a quorum lock: Redis may be down, or only busy.
 * {@link #failedNodes()} says which nodes failed and how; each failure is also suppressed here. A
 * connection failure to the lock, which retries it within a wait and reports it as a
 * {@link dev.lockstep.RedisUnreachableException} after.
 */
public final class NoQuorumException extends JedisConnectionException {

    private final transient Map<Integer, Throwable> failedNodes;

    private NoQuorumException(String message, Map<Integer, Throwable> failedNodes) {
        super(message);
        this.failedNodes = Collections.unmodifiableMap(failedNodes);
        failedNodes.values().forEach(this::addSuppressed);
    }

    /** {@code problem}, followed by how each node of {@code replies} (one per node, in node order) failed. */
    static NoQuorumException of(String problem, List<Reply> replies) {
        Map<Integer, Throwable> failed = new LinkedHashMap<>();
        for (int node = 1; node <= replies.size(); node++) {
            if (replies.get(node - 1) instanceof Reply.Failed failure) {
                failed.put(node, failure.cause());
            }
        }
        String which = failed.entrySet().stream()
                .map(e -> "n" + e.getKey() + ": " + e.getValue().getClass().getSimpleName() + " " + e.getValue().getMessage())
                .collect(Collectors.joining("; "));
        return new NoQuorumException(problem + " (" + which + ")", failed);
    }

    /** The nodes that did not answer in time, numbered from 1 in the order the client was given them, and why. */
    public Map<Integer, Throwable> failedNodes() {
        return failedNodes;
    }
}
