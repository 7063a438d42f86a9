package dev.lockstep.testkit.client;

import dev.lockstep.testkit.fault.Signals;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A child JVM on this JVM's class path and Java, driven over its standard streams: commands go in
 * one per line; the lines it prints that start with the protocol's prefix come back without it,
 * in order, on a reader thread, and whatever else it prints (its logging) is dropped, as is its
 * standard error. It can be stopped and resumed with real signals, and killed without warning.
 * The one driver of {@link ClientProcess} and the soak's clients.
 */
public final class ChildJvm implements AutoCloseable {

    private final String who;
    private final Process process;
    private final Writer commands;

    /**
     * Starts {@code main} with {@code args}, {@code heapMegabytes} of heap at most and
     * {@code properties} ({@code -Dname=value}); hands each line it prints that starts with
     * {@code prefix}, prefix removed, to {@code lines} on a daemon thread called {@code readerName}.
     * {@code who} names the JVM in errors.
     */
    public ChildJvm(String who, Class<?> main, int heapMegabytes, List<String> properties, List<String> args,
                    String prefix, String readerName, Consumer<String> lines) {
        this.who = who;
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        List<String> command = new ArrayList<>(List.of(java.toString(),
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xshare:auto", "-Xmx" + heapMegabytes + "m",
                "-cp", System.getProperty("java.class.path")));
        command.addAll(properties);
        command.add(main.getName());
        command.addAll(args);
        try {
            process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the JVM of " + who, e);
        }
        commands = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        Thread reader = new Thread(() -> read(prefix, lines), readerName);
        reader.setDaemon(true);
        reader.start();
    }

    /** The child's process id. */
    public long pid() {
        return process.pid();
    }

    /** Sends one command line. */
    public void send(String line) {
        try {
            commands.write(line + "\n");
            commands.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(who + " is gone", e);
        }
    }

    /** SIGSTOP: a stop-the-world pause; the child's threads, timers and sockets all freeze. */
    public void pause() {
        Signals.stop(process);
    }

    /** SIGCONT after {@link #pause()}: the child carries on as if no time had passed. */
    public void resume() {
        Signals.resume(process);
    }

    /** SIGKILL, then waits (at most 10 s) until the child is gone: no shutdown hook, no finally block runs. */
    public void kill() {
        process.destroyForcibly();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** SIGKILL, without waiting. */
    @Override
    public void close() {
        process.destroyForcibly();
    }

    private void read(String prefix, Consumer<String> lines) {
        try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                if (line.startsWith(prefix)) {
                    lines.accept(line.substring(prefix.length()));
                }
            }
        } catch (IOException e) {
            // The child died: whoever waits for its next line finds out.
        }
    }
}
