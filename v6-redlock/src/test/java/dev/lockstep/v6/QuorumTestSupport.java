package dev.lockstep.v6;

import dev.lockstep.Locks;
import dev.lockstep.testkit.fixture.RedisNode;
import dev.lockstep.testkit.watch.RedisTraffic;
import dev.lockstep.v3.internal.RedissonLayout;
import dev.lockstep.v4.internal.WatchdogLock;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import redis.clients.jedis.Jedis;

/**
 * What the v6 quorum tests share: reading a lock's hash straight from one node, counting the
 * scripts a node ran, loading every script the quorum lock uses up front, and a dedicated
 * thread to hold a lock on (a lock is owned by thread id, so lock and unlock must run on the
 * same thread, and so must {@code isHeldByCurrentThread}).
 */
final class QuorumTestSupport {

    /** How long any single step may take before a test fails instead of hanging the build. */
    static final Duration DEADLINE = Duration.ofSeconds(20);

    private QuorumTestSupport() {
    }

    /** The lock's Redis key on each node: its name, as Redisson keys a lock. */
    static String key(String name) {
        return name;
    }

    /** The lock's release channel, on which v5 and v6 publish. */
    static String channel(String name) {
        return RedissonLayout.releaseChannel(name);
    }

    /** The lock hash on {@code node}: owner field to hold count (empty when the key is absent). */
    static Map<String, String> hash(RedisNode node, String name) {
        try (Jedis admin = node.admin()) {
            return admin.hgetAll(key(name));
        }
    }

    /** The fields of the lock hash on {@code node} that belong to {@code client}. */
    static Set<String> fieldsOf(RedisNode node, String name, Locks client) {
        return hash(node, name).keySet().stream()
                .filter(field -> field.startsWith(client.clientId() + ":"))
                .collect(Collectors.toSet());
    }

    /** The key's remaining time to live on {@code node} in ms (-2: no key, -1: no expiry). */
    static long pttl(RedisNode node, String name) {
        try (Jedis admin = node.admin()) {
            return admin.pttl(key(name));
        }
    }

    /** Scripts {@code node} has run since it started: EVALSHA and EVAL, from {@code INFO commandstats}. */
    static long scriptRuns(RedisNode node) {
        return RedisTraffic.scriptRuns(node);
    }

    /**
     * Loads every script a quorum lock uses into {@code node}, so each later call is exactly one
     * EVALSHA: no NOSCRIPT round trip inside a timed round, and exact script counts.
     */
    static void loadScripts(RedisNode node) {
        try (Jedis admin = node.admin()) {
            admin.scriptLoad(resource(QuorumLock.class, "lock.lua"));
            admin.scriptLoad(resource(WatchdogLock.class, "unlock-counted.lua"));
            admin.scriptLoad(resource(QuorumLock.class, "undo.lua"));
            admin.scriptLoad(resource(RedissonLayout.class, "extend.lua"));
        }
    }

    private static String resource(Class<?> owner, String name) {
        try (InputStream in = owner.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("no script " + name + " beside " + owner.getName());
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** How many connections {@code node} has subscribed to lock {@code name}'s release channel. */
    static long subscribers(RedisNode node, String name) {
        try (Jedis admin = node.admin()) {
            return admin.pubsubNumSub(channel(name)).getOrDefault(channel(name), 0L);
        }
    }

    /** Nanoseconds as whole milliseconds, for messages. */
    static long millis(long nanos) {
        return TimeUnit.NANOSECONDS.toMillis(nanos);
    }
}
