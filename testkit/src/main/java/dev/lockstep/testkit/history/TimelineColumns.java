package dev.lockstep.testkit.history;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The columns of a text timeline and their widths: a lane per client, a narrow column per node and the
 * {@code redis} lane when some row shows Redis, sharing {@value #COLUMNS} columns after the time and marker.
 */
final class TimelineColumns {

    /** The widest a row gets. */
    static final int COLUMNS = 120;
    /** The time ({@code %6d}) and the overlap marker ({@code "  x2  "}) before the first column. */
    private static final int TIME_AND_MARKER = 12;
    /** The blanks after each column. */
    private static final int GAP = 2;
    private static final int MAX_LANE = 30;
    private static final int MIN_LANE = 12;
    private static final int MIN_REDIS_LANE = 26;
    private static final int MIN_NODE = 3;

    private final List<String> clients;
    private final List<String> nodes;
    private final boolean redisLane;
    private final Map<String, Integer> nodeWidths = new HashMap<>();
    private final int lane;
    private final int redisWidth;

    /**
     * Columns for {@code clients}, {@code nodes} (each wide enough for its name and for {@code nodeText},
     * the widest text a node column shows) and, with {@code redisLane}, the {@code redis} lane.
     */
    TimelineColumns(List<String> clients, List<String> nodes, int nodeText, boolean redisLane) {
        this.clients = clients;
        this.nodes = nodes;
        this.redisLane = redisLane;
        int nodeColumns = 0;
        for (String node : nodes) {
            int width = Math.max(Math.max(MIN_NODE, node.length()), nodeText);
            nodeWidths.put(node, width);
            nodeColumns += width + GAP;
        }
        int fixed = TIME_AND_MARKER + nodeColumns + (redisLane ? MIN_REDIS_LANE : 0);
        this.lane = clients.isEmpty() ? MIN_LANE
                : Math.max(MIN_LANE, Math.min(MAX_LANE, (COLUMNS - fixed) / clients.size() - GAP));
        this.redisWidth = COLUMNS - TIME_AND_MARKER - nodeColumns - clients.size() * (lane + GAP);
    }

    List<String> clients() {
        return clients;
    }

    List<String> nodes() {
        return nodes;
    }

    /** Whether the last column is the {@code redis} lane. */
    boolean redisLane() {
        return redisLane;
    }

    /** The width of a client's lane. */
    int lane() {
        return lane;
    }

    /** The width of {@code node}'s column. */
    int node(String node) {
        return nodeWidths.get(node);
    }

    /** The width of the {@code redis} lane. */
    int redis() {
        return redisWidth;
    }

    /** The width of the column at {@code column}, counting the clients' lanes first, then the nodes', then Redis's. */
    int width(int column) {
        if (column < clients.size()) {
            return lane;
        }
        int node = column - clients.size();
        return node < nodes.size() ? nodeWidths.get(nodes.get(node)) : redisWidth;
    }
}
