package dev.lockstep.v5;

import static org.junit.jupiter.api.Assertions.fail;

import dev.lockstep.DistLock;
import dev.lockstep.LockOptions;
import dev.lockstep.testkit.fixture.Await;
import dev.lockstep.testkit.fixture.RedisNode;
import dev.lockstep.testkit.watch.RedisTraffic;
import dev.lockstep.v3.internal.RedissonLayout;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import java.util.function.Supplier;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.UnifiedJedis;

/**
 * What the v5 tests read from the outside to see what a lock did: the server's own counters and
 * subscriptions, never hooks in main code.
 */
final class Probe {

    private Probe() {
    }

    /**
     * Loads v5's lock and unlock scripts on {@code node} once, so every later attempt is exactly
     * one EVALSHA and script counts are exact (a first run adds a failed EVALSHA and an EVAL).
     */
    static void warmScripts(RedisNode node) {
        try (UnifiedJedis redis = node.newClient(); PubSubLocks locks = new PubSubLocks(redis, LockOptions.defaults())) {
            DistLock warm = locks.get("warm-up");
            warm.lock();
            warm.unlock();
        }
    }

    /** The lock's Redis key: its name, as v5 and Redisson write it. */
    static String key(String name) {
        return name;
    }

    /** The channel a release of lock {@code name} is published on, Redisson's name for it. */
    static String channel(String name) {
        return RedissonLayout.releaseChannel(name);
    }

    /**
     * How many scripts the server has run (EVAL + EVALSHA). Each lock attempt and each unlock is one
     * script run, so a delta counts the attempts waiters made: a MONITOR-free cost meter.
     */
    static long scriptRuns(RedisNode node) {
        return RedisTraffic.scriptRuns(node);
    }

    /** How many connections the server has subscribed to {@code channel}. */
    static long subscribers(RedisNode node, String channel) {
        return RedisTraffic.subscribers(List.of(node), channel);
    }

    /** Every channel with at least one subscriber, as the server sees it ({@code PUBSUB CHANNELS *}). */
    static Set<String> serverChannels(RedisNode node) {
        try (Jedis admin = node.admin()) {
            return new TreeSet<>(admin.pubsubChannels("*"));
        }
    }

    /** The ids of the connections subscribed to at least one channel, as the server sees them ({@code CLIENT LIST}). */
    static Set<String> subscribedConnections(RedisNode node) {
        return connectionIds(node, client -> !client.contains(" sub=0 "));
    }

    /** The ids of every client connection open on the server ({@code CLIENT LIST}), the probe's own included. */
    static Set<String> connections(RedisNode node) {
        return connectionIds(node, client -> true);
    }

    private static Set<String> connectionIds(RedisNode node, Predicate<String> counted) {
        try (Jedis admin = node.admin()) {
            Set<String> ids = new TreeSet<>();
            for (String client : admin.clientList().split("\n")) {
                if (!client.isBlank() && counted.test(client)) {
                    ids.add(client.substring("id=".length(), client.indexOf(' ')));
                }
            }
            return ids;
        }
    }

    /** The owner fields of lock {@code name}'s hash: who holds it, as {@code clientId:threadId}. */
    static Set<String> owners(RedisNode node, String name) {
        try (Jedis admin = node.admin()) {
            return admin.hkeys(key(name));
        }
    }

    /**
     * Polls {@code value} until {@code ok} accepts it, failing after {@code within} with the last
     * value seen, so a failure says what was left over and not only that something was.
     */
    static <T> void eventually(String what, Duration within, Supplier<T> value, Predicate<T> ok) {
        AtomicReference<T> last = new AtomicReference<>();
        try {
            Await.until(what, within, () -> {
                last.set(value.get());
                return ok.test(last.get());
            });
        } catch (AssertionError e) {
            fail(what + ": not within " + within + "; last seen: " + last.get(), e);
        }
    }
}
