package dev.lockstep.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * How many times this JVM's threads have gone to sleep so far: Linux's voluntary context switches,
 * summed over {@code /proc/self/task}. Each is a wake-up some other thread or the kernel had to
 * pay for: a caller waiting for a reply, or a helper thread a lock woke. Zero where there is no
 * {@code /proc} (not Linux); a thread that ended takes its count with it.
 */
final class ThreadSleeps {

    private static final Path TASKS = Path.of("/proc/self/task");
    private static final String FIELD = "voluntary_ctxt_switches:";

    private ThreadSleeps() {
    }

    /** The sleeps of every live thread of this JVM so far. */
    static long total() {
        if (!Files.isDirectory(TASKS)) {
            return 0;
        }
        long total = 0;
        try (Stream<Path> tasks = Files.list(TASKS)) {
            for (Path task : tasks.toList()) {
                total += sleeps(task.resolve("status"));
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot list " + TASKS, e);
        }
        return total;
    }

    private static long sleeps(Path status) {
        try (Stream<String> lines = Files.lines(status)) {
            return lines.filter(line -> line.startsWith(FIELD))
                    .mapToLong(line -> Long.parseLong(line.substring(FIELD.length()).strip()))
                    .sum();
        } catch (IOException threadEnded) {
            return 0;
        }
    }
}
