package dev.lockstep.testkit;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisMonitor;
import redis.clients.jedis.exceptions.JedisException;

/**
 * Counts what clients ask of one Redis node over a window, two ways. Requests: the commands
 * clients send, one round trip each, counted from {@code MONITOR} (which tags the commands a
 * script runs as {@code lua}, so those are left out). Commands: the {@code INFO commandstats}
 * total, which counts every command the server ran, those inside scripts too: server work.
 */
public final class RedisTraffic implements AutoCloseable {

    private static final Pattern COMMANDSTAT = Pattern.compile("cmdstat_([^:]+):calls=(\\d+),.*");

    private final RedisNode node;
    private final Jedis monitor;
    private final Thread reader;
    private final AtomicLong requests = new AtomicLong();
    private final long commandsBefore;

    /** Starts counting on {@code node}; returns once MONITOR is on. */
    public RedisTraffic(RedisNode node) throws InterruptedException {
        this.node = node;
        this.commandsBefore = commandstatsTotal();
        this.monitor = node.admin();
        CountDownLatch on = new CountDownLatch(1);
        reader = new Thread(() -> {
            try {
                monitor.monitor(new JedisMonitor() {
                    @Override
                    public void proceed(redis.clients.jedis.Connection connection) {
                        on.countDown();
                        super.proceed(connection);
                    }

                    @Override
                    public void onCommand(String line) {
                        if (!line.contains("[0 lua]") && !line.contains("\"info\"")) {
                            requests.incrementAndGet();
                        }
                    }
                });
            } catch (JedisException e) {
                // close() cut the connection: counting is over.
            }
        }, "lockstep-traffic-" + node.address().getPort());
        reader.setDaemon(true);
        reader.start();
        if (!on.await(5, TimeUnit.SECONDS)) {
            throw new IllegalStateException("MONITOR did not start on " + node.label());
        }
    }

    /** Round trips clients made since counting began. */
    public long requests() {
        return requests.get();
    }

    /** Commands the server ran since counting began, those inside scripts included (INFO itself excluded). */
    public long commands() {
        return commandstatsTotal() - commandsBefore;
    }

    private long commandstatsTotal() {
        Map<String, Long> calls = commandstats(node);
        calls.remove("info");
        calls.remove("monitor");
        return calls.values().stream().mapToLong(Long::longValue).sum();
    }

    /** How often {@code node} has run each command since it started, from {@code INFO commandstats}. */
    public static Map<String, Long> commandstats(RedisNode node) {
        Map<String, Long> calls = new HashMap<>();
        try (Jedis admin = node.admin()) {
            for (String line : admin.info("commandstats").split("\r?\n")) {
                Matcher m = COMMANDSTAT.matcher(line);
                if (m.matches()) {
                    calls.put(m.group(1), Long.parseLong(m.group(2)));
                }
            }
        }
        return calls;
    }

    /** Stops MONITOR and its thread. */
    @Override
    public void close() {
        monitor.disconnect();
        try {
            reader.join(TimeUnit.SECONDS.toMillis(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
