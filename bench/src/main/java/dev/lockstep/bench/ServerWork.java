package dev.lockstep.bench;

import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What Redis servers have done since they started, from {@code INFO all}; the difference of two
 * snapshots is the work of the window between them.
 *
 * @param scriptCalls EVAL and EVALSHA requests
 * @param roundTrips  requests read from clients ({@code total_reads_processed}): one per
 *                    round trip, however many commands a pipeline carries
 * @param commands    every command the servers ran ({@code INFO commandstats}), those run inside
 *                    scripts too: server work
 * @param cpuMicros   the servers' processor time, system and user ({@code used_cpu_sys} +
 *                    {@code used_cpu_user}), in µs: what the commands cost, and what no command
 *                    counts (a Cluster's bus, relaying every PUBLISH to every node)
 * @param relayedPublishes PUBLISH messages the servers received from other Cluster nodes over the
 *                    Cluster bus, to hand to their own subscribers ({@code CLUSTER INFO}'s
 *                    {@code cluster_stats_messages_publish_received}); 0 outside a Cluster
 */
record ServerWork(long scriptCalls, long roundTrips, long commands, long cpuMicros, long relayedPublishes) {

    private static final Pattern COMMAND = Pattern.compile("cmdstat_([^:]+):calls=(\\d+),.*");
    private static final Pattern READS = Pattern.compile("total_reads_processed:(\\d+)");
    /** Seconds with six decimals; the {@code _children} and {@code _main_thread} lines are not these. */
    private static final Pattern CPU = Pattern.compile("used_cpu_(?:sys|user):(\\d+)\\.(\\d{6})");
    /** Listed only once one arrived. */
    private static final Pattern RELAYED = Pattern.compile("cluster_stats_messages_publish_received:(\\d+)");
    private static final Set<String> SCRIPTS = Set.of("eval", "evalsha", "eval_ro", "evalsha_ro");

    static final ServerWork NONE = new ServerWork(0, 0, 0, 0, 0);

    /**
     * The work in one server's {@code INFO all} reply, less the INFO requests that measured it
     * ({@code infoRequests}, the one that produced {@code info} included), so measuring costs nothing.
     */
    static ServerWork parse(String info, long infoRequests) {
        long scriptCalls = 0;
        long reads = 0;
        long commands = 0;
        long cpuMicros = 0;
        for (String line : info.split("\\r?\\n")) {
            Matcher command = COMMAND.matcher(line);
            if (command.matches()) {
                String name = command.group(1);
                long calls = Long.parseLong(command.group(2));
                if (!name.equals("info")) {
                    commands += calls;
                }
                if (SCRIPTS.contains(name)) {
                    scriptCalls += calls;
                }
            }
            Matcher read = READS.matcher(line);
            if (read.matches()) {
                reads = Long.parseLong(read.group(1));
            }
            Matcher cpu = CPU.matcher(line);
            if (cpu.matches()) {
                cpuMicros += Long.parseLong(cpu.group(1)) * 1_000_000 + Long.parseLong(cpu.group(2));
            }
        }
        return new ServerWork(scriptCalls, reads - infoRequests, commands, cpuMicros, 0);
    }

    /**
     * The work in a Cluster node's {@code INFO all} and {@code CLUSTER INFO} replies, read in that
     * order {@code measurements} times so far: less those requests, so measuring costs nothing.
     */
    static ServerWork parse(String info, String clusterInfo, long measurements) {
        ServerWork work = parse(info, 2 * measurements);
        Matcher relayed = RELAYED.matcher(clusterInfo);
        return new ServerWork(work.scriptCalls, work.roundTrips, work.commands - measurements, work.cpuMicros,
                relayed.find() ? Long.parseLong(relayed.group(1)) : 0);
    }

    ServerWork plus(ServerWork other) {
        return new ServerWork(scriptCalls + other.scriptCalls, roundTrips + other.roundTrips, commands + other.commands,
                cpuMicros + other.cpuMicros, relayedPublishes + other.relayedPublishes);
    }

    ServerWork minus(ServerWork earlier) {
        return new ServerWork(scriptCalls - earlier.scriptCalls, roundTrips - earlier.roundTrips,
                commands - earlier.commands, cpuMicros - earlier.cpuMicros, relayedPublishes - earlier.relayedPublishes);
    }
}
