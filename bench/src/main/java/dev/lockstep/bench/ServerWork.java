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
 */
record ServerWork(long scriptCalls, long roundTrips, long commands) {

    private static final Pattern COMMAND = Pattern.compile("cmdstat_([^:]+):calls=(\\d+),.*");
    private static final Pattern READS = Pattern.compile("total_reads_processed:(\\d+)");
    private static final Set<String> SCRIPTS = Set.of("eval", "evalsha", "eval_ro", "evalsha_ro");

    static final ServerWork NONE = new ServerWork(0, 0, 0);

    /**
     * The work in one server's {@code INFO all} reply, less the INFO requests that measured it
     * ({@code infoRequests}, the one that produced {@code info} included), so measuring costs nothing.
     */
    static ServerWork parse(String info, long infoRequests) {
        long scriptCalls = 0;
        long reads = 0;
        long commands = 0;
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
        }
        return new ServerWork(scriptCalls, reads - infoRequests, commands);
    }

    ServerWork plus(ServerWork other) {
        return new ServerWork(scriptCalls + other.scriptCalls, roundTrips + other.roundTrips, commands + other.commands);
    }

    ServerWork minus(ServerWork earlier) {
        return new ServerWork(scriptCalls - earlier.scriptCalls, roundTrips - earlier.roundTrips,
                commands - earlier.commands);
    }
}
