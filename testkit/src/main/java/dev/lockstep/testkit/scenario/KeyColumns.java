package dev.lockstep.testkit.scenario;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which lock keys one node's watch draws in columns of their own ({@link ScenarioContext#keyColumns}),
 * and under what names, and which it leaves out because another node's watch draws them.
 *
 * @param drawn  key to the name of its column
 * @param hidden keys whose events this watch does not record
 */
record KeyColumns(Map<String, String> drawn, Set<String> hidden) {

    /** No key apart: the node's column shows them all. */
    static final KeyColumns NONE = new KeyColumns(Map.of(), Set.of());

    /**
     * What the watch of node {@code node} draws apart when a story asks for {@code keys} in columns
     * of their own: the first watch draws the keys (on several masters, named after its node, such as
     * {@code n1:inventory}), the others leave them out.
     */
    static KeyColumns forWatch(List<String> keys, boolean first, String node, boolean multiNode) {
        if (keys.isEmpty()) {
            return NONE;
        }
        if (!first) {
            return new KeyColumns(Map.of(), Set.copyOf(keys));
        }
        Map<String, String> drawn = new LinkedHashMap<>();
        keys.forEach(key -> drawn.put(key, multiNode ? node + ":" + key : key));
        return new KeyColumns(drawn, Set.of());
    }

    /** Whether the node's own column goes: some key is drawn apart, by this watch or another. */
    boolean apart() {
        return !drawn.isEmpty() || !hidden.isEmpty();
    }

    /** The column {@code key} is drawn in, or null when it is the node's. */
    String column(String key) {
        return drawn.get(key);
    }

    /** Whether this watch leaves {@code key} out. */
    boolean hides(String key) {
        return hidden.contains(key);
    }
}
