package dev.lockstep.testkit.watch;

import dev.lockstep.testkit.fixture.RedisNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import redis.clients.jedis.Connection;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisMonitor;
import redis.clients.jedis.exceptions.JedisException;

/**
 * Counts what clients ask of some Redis nodes over a window, two ways. Requests: the commands
 * clients send, one round trip each, counted from {@code MONITOR} (which tags the commands a
 * script runs as {@code lua}, so those are left out). Commands: the {@code INFO commandstats}
 * total, which counts every command the server ran, those inside scripts too: server work. Neither
 * counts {@code INFO}, nor what a {@code RedisWatch} reads to draw the timeline (MONITOR shows those
 * by their connections' addresses).
 */
public final class RedisTraffic implements AutoCloseable {

    private static final Pattern COMMANDSTAT = Pattern.compile("cmdstat_([^:]+):calls=(\\d+),.*");

    /** The client name of the connections that draw the timeline ({@code RedisWatch}): what they ask is not counted. */
    public static final String UNCOUNTED_CLIENT = "lockstep-watch";

    private final List<RedisNode> nodes;
    private final List<Jedis> monitors = new ArrayList<>();
    private final List<Thread> readers = new ArrayList<>();
    private final AtomicLong requests = new AtomicLong();
    private final AtomicLong watchCommands = new AtomicLong();
    private final long commandsBefore;

    /** Starts counting on {@code nodes}; returns once MONITOR is on for each. */
    public RedisTraffic(List<RedisNode> nodes) throws InterruptedException {
        this.nodes = List.copyOf(nodes);
        this.commandsBefore = commandstatsTotal();
        for (RedisNode node : nodes) {
            monitor(node);
        }
    }

    private void monitor(RedisNode node) throws InterruptedException {
        Set<String> watches = watchAddresses(node);
        Jedis monitor = node.admin();
        monitors.add(monitor);
        CountDownLatch on = new CountDownLatch(1);
        Thread reader = new Thread(() -> {
            try {
                monitor.monitor(new JedisMonitor() {
                    @Override
                    public void proceed(Connection connection) {
                        on.countDown();
                        super.proceed(connection);
                    }

                    @Override
                    public void onCommand(String line) {
                        int from = line.indexOf('[');
                        int to = line.indexOf(']', from + 1);
                        String client = from < 0 || to < 0 ? "" : line.substring(line.indexOf(' ', from) + 1, to);
                        if (watches.contains(client)) {
                            watchCommands.incrementAndGet();
                        } else if (!client.equals("lua") && !line.contains("\"info\"")) {
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
        readers.add(reader);
        if (!on.await(5, TimeUnit.SECONDS)) {
            throw new IllegalStateException("MONITOR did not start on " + node.label());
        }
    }

    /** Where the connections of {@code node}'s watches come from, as MONITOR names clients ({@code host:port}). */
    private static Set<String> watchAddresses(RedisNode node) {
        Set<String> addresses = new HashSet<>();
        try (Jedis admin = node.admin()) {
            for (String client : admin.clientList().split("\r?\n")) {
                if (client.contains(" name=" + UNCOUNTED_CLIENT + " ")) {
                    for (String field : client.split(" ")) {
                        if (field.startsWith("addr=")) {
                            addresses.add(field.substring("addr=".length()));
                        }
                    }
                }
            }
        }
        return addresses;
    }

    /** How many clients listen on {@code channel} across {@code nodes} now ({@code PUBSUB NUMSUB} on each). */
    public static long subscribers(List<RedisNode> nodes, String channel) {
        long total = 0;
        for (RedisNode node : nodes) {
            try (Jedis admin = node.admin()) {
                total += admin.pubsubNumSub(channel).getOrDefault(channel, 0L);
            }
        }
        return total;
    }

    /** Round trips clients made to all the nodes since counting began. */
    public long requests() {
        return requests.get();
    }

    /** Commands the servers ran since counting began, those inside scripts included (INFO itself excluded). */
    public long commands() {
        return commandstatsTotal() - commandsBefore - watchCommands.get();
    }

    private long commandstatsTotal() {
        long total = 0;
        for (RedisNode node : nodes) {
            Map<String, Long> calls = commandstats(node);
            calls.remove("info");
            calls.remove("monitor");
            total += calls.values().stream().mapToLong(Long::longValue).sum();
        }
        return total;
    }

    /** How many nodes are counted. */
    public int nodeCount() {
        return nodes.size();
    }

    /** How often {@code node} has run each command since it started, from {@code INFO commandstats}. */
    public static Map<String, Long> commandstats(RedisNode node) {
        return commandstatsOf(node);
    }

    /** Scripts {@code node} has run since it started: EVALSHA and EVAL calls, from {@code INFO commandstats}. */
    public static long scriptRuns(RedisNode node) {
        Map<String, Long> calls = commandstatsOf(node);
        return calls.getOrDefault("evalsha", 0L) + calls.getOrDefault("eval", 0L);
    }

    private static Map<String, Long> commandstatsOf(RedisNode node) {
        Map<String, Long> calls = new HashMap<>();
        try (Jedis admin = node.admin()) {
            for (String line : admin.info("commandstats").split("\\r?\\n")) {
                Matcher m = COMMANDSTAT.matcher(line);
                if (m.matches()) {
                    calls.put(m.group(1), Long.parseLong(m.group(2)));
                }
            }
        }
        return calls;
    }

    /** Stops MONITOR and its threads. */
    @Override
    public void close() {
        monitors.forEach(Jedis::disconnect);
        for (Thread reader : readers) {
            try {
                reader.join(TimeUnit.SECONDS.toMillis(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
