package dev.lockstep.testkit.scenario;

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
