package dev.lockstep.testkit.model;

import dev.lockstep.testkit.fixture.RedisNode;
import dev.lockstep.testkit.stage.Stage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

/**
 * What Redis stores, read by an admin connection that no fault touches: the lock hash's fields on
 * each node, and every key without a TTL. A quorum stage stores what a majority of its nodes store.
 *
 * <p>On a lock over several names an owner's field on the modelled name counts its holds through
 * every lock of its client ({@code NameHolds}), so the view splits it as the model keeps it: the
 * group's holds under {@code field:group} (what the other name counts, while the modelled name has
 * the field too), the single name's under {@code field} (the rest).
 *
 * @param fields         per node, the lock's fields (owner field to count; {@code mode} left out)
 * @param keysWithoutTtl keys (node:key) with no TTL, token counters left out
 * @param keyTtls        per node and name, the key's PTTL in milliseconds (negative when it has none)
 * @param lockKeyExists  per node, whether the modelled name's key exists
 * @param readFrom       when (nanoTime) the reading began: every TTL was read after it
 * @param readTo         when (nanoTime) the reading ended: every TTL was read before it
 * @param lockCounts     per node, the modelled name's own fields, before any split
 * @param otherOnly      fields the group's other name stores and the modelled name does not (a group
 *                       whose share of the modelled name was forced away), as {@code field:group}
 */
record RedisView(List<Map<String, Integer>> fields, List<String> keysWithoutTtl, List<Long> keyTtls,
                 List<Boolean> lockKeyExists, long readFrom, long readTo, List<Map<String, Integer>> lockCounts,
                 Set<String> otherOnly) {

    /** The suffix of an owner's group holds in {@link #fields}. */
    static final String GROUP_SUFFIX = ":group";

    /** Reads the modelled lock of {@code setup} (and the group's other name) and scans every key on each of {@code nodes}. */
    static RedisView read(List<RedisNode> nodes, ModelSetup setup) {
        List<Map<String, Integer>> fields = new ArrayList<>();
        List<String> noTtl = new ArrayList<>();
        List<Long> keyTtls = new ArrayList<>();
        List<Boolean> exists = new ArrayList<>();
        List<Map<String, Integer>> lockCounts = new ArrayList<>();
        Set<String> otherOnly = new TreeSet<>();
        long readFrom = System.nanoTime();
        for (RedisNode node : nodes) {
            try (Jedis admin = node.admin()) {
                keyTtls.add(admin.pttl(ModelSetup.LOCK));
                exists.add(admin.exists(ModelSetup.LOCK));
                Map<String, Integer> counts = counts(admin, ModelSetup.LOCK);
                lockCounts.add(counts);
                if (setup.severalNames()) {
                    keyTtls.add(admin.pttl(ModelSetup.OTHER));
                    Map<String, Integer> other = counts(admin, ModelSetup.OTHER);
                    Map<String, Integer> modelled = counts;
                    other.keySet().stream().filter(field -> !modelled.containsKey(field))
                            .forEach(field -> otherOnly.add(field + GROUP_SUFFIX));
                    counts = split(counts, other);
                }
                fields.add(counts);
                String cursor = ScanParams.SCAN_POINTER_START;
                do {
                    ScanResult<String> page = admin.scan(cursor);
                    for (String key : page.getResult()) {
                        if (!key.startsWith(Stage.TOKEN_COUNTERS) && admin.pttl(key) == -1) {
                            noTtl.add(node.label() + ":" + key);
                        }
                    }
                    cursor = page.getCursor();
                } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
            }
        }
        return new RedisView(fields, noTtl, keyTtls, exists, readFrom, System.nanoTime(), lockCounts, otherOnly);
    }

    private static Map<String, Integer> counts(Jedis admin, String key) {
        Map<String, Integer> counts = new HashMap<>();
        if ("hash".equals(admin.type(key))) {
            admin.hgetAll(key).forEach((field, value) -> {
                if (!field.equals("mode")) {
                    counts.put(field, Integer.parseInt(value));
                }
            });
        }
        return counts;
    }

    /** The modelled name's counts split into the single name's and the group's, as the model keeps them. */
    private static Map<String, Integer> split(Map<String, Integer> modelled, Map<String, Integer> other) {
        Map<String, Integer> split = new HashMap<>();
        modelled.forEach((field, count) -> {
            int group = other.getOrDefault(field, 0);
            if (group != 0) {
                split.put(field + GROUP_SUFFIX, group);
            }
            if (count - group != 0) {
                split.put(field, count - group);
            }
        });
        return split;
    }

    /** The owner a field of {@link #fields} belongs to: the field without a side's suffix. */
    static String owner(String field) {
        for (String suffix : List.of(GROUP_SUFFIX, ":write")) {
            if (field.endsWith(suffix)) {
                return field.substring(0, field.length() - suffix.length());
            }
        }
        return field;
    }

    /** The count Redis stores in {@code field}: on a majority of nodes, 0 when a majority has none, -1 when split. */
    int count(String field) {
        return majority(fields, field);
    }

    /** The count the modelled name's own hash stores in {@code field}, before any split; as {@link #count}. */
    int lockCount(String field) {
        return majority(lockCounts, field);
    }

    private static int majority(List<Map<String, Integer>> fields, String field) {
        Map<Integer, Integer> votes = new HashMap<>();
        for (Map<String, Integer> node : fields) {
            votes.merge(node.getOrDefault(field, 0), 1, Integer::sum);
        }
        int quorum = fields.size() / 2 + 1;
        return votes.entrySet().stream().filter(e -> e.getValue() >= quorum).mapToInt(Map.Entry::getKey)
                .findFirst().orElse(-1);
    }

    /** Whether a majority of nodes store the modelled name's key. */
    boolean lockKeyHeld() {
        return lockKeyExists.stream().filter(Boolean::booleanValue).count() > lockKeyExists.size() / 2;
    }

    /** Every field on any node, for the stuck-hold check (a minority's leftover must expire too). */
    List<String> anyFields() {
        return fields.stream().flatMap(node -> node.keySet().stream()).distinct().sorted().toList();
    }

    @Override
    public String toString() {
        return fields.size() == 1 ? fields.get(0).toString() : fields.toString();
    }
}
