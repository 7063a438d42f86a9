package dev.lockstep.testkit.model;

import dev.lockstep.testkit.fixture.RedisNode;
import dev.lockstep.testkit.stage.Stage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

/**
 * What Redis stores, read by an admin connection that no fault touches: the lock hash's fields on
 * each node, and every key without a TTL. A quorum stage stores what a majority of its nodes store.
 *
 * @param fields        per node, the lock hash's fields (owner field to count; {@code mode} left out)
 * @param keysWithoutTtl keys (node:key) with no TTL, token counters left out
 * @param keyTtls       per node, the lock key's PTTL in milliseconds (negative when it has none)
 */
record RedisView(List<Map<String, Integer>> fields, List<String> keysWithoutTtl, List<Long> keyTtls) {

    /** Reads {@code lockName} and scans every key on each of {@code nodes}. */
    static RedisView read(List<RedisNode> nodes, String lockName) {
        List<Map<String, Integer>> fields = new ArrayList<>();
        List<String> noTtl = new ArrayList<>();
        List<Long> keyTtls = new ArrayList<>();
        for (RedisNode node : nodes) {
            try (Jedis admin = node.admin()) {
                keyTtls.add(admin.pttl(lockName));
                Map<String, Integer> counts = new HashMap<>();
                if ("hash".equals(admin.type(lockName))) {
                    admin.hgetAll(lockName).forEach((field, value) -> {
                        if (!field.equals("mode")) {
                            counts.put(field, Integer.parseInt(value));
                        }
                    });
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
        return new RedisView(fields, noTtl, keyTtls);
    }

    /** The count Redis stores in {@code field}: on a majority of nodes, 0 when a majority has none, -1 when split. */
    int count(String field) {
        Map<Integer, Integer> votes = new HashMap<>();
        for (Map<String, Integer> node : fields) {
            votes.merge(node.getOrDefault(field, 0), 1, Integer::sum);
        }
        int quorum = fields.size() / 2 + 1;
        return votes.entrySet().stream().filter(e -> e.getValue() >= quorum).mapToInt(Map.Entry::getKey)
                .findFirst().orElse(-1);
    }

    /** Every field stored on a majority of nodes, with a count above 0. */
    List<String> heldFields() {
        Map<String, Integer> votes = new HashMap<>();
        fields.forEach(node -> node.keySet().forEach(field -> votes.merge(field, 1, Integer::sum)));
        int quorum = fields.size() / 2 + 1;
        return votes.entrySet().stream().filter(e -> e.getValue() >= quorum).map(Map.Entry::getKey).sorted().toList();
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
