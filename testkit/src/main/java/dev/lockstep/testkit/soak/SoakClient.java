package dev.lockstep.testkit.soak;

import dev.lockstep.testkit.fault.FaultyLink;
import dev.lockstep.testkit.fault.Signals;
import dev.lockstep.testkit.fixture.RedisNode;
import dev.lockstep.testkit.stage.Stage;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * One soak client: a {@link SoakWorkerMain} JVM connected to every node through a
 * {@link FaultyLink} of its own, so a fault on its side of the wire touches no other client.
 * A crash kills the JVM; the client then comes back as a new JVM (a new client id) on the same links.
 */
final class SoakClient implements AutoCloseable {

    private static final Duration STARTUP = Duration.ofSeconds(30);

    private final String name;
    private final Stage stage;
    private final Duration lease;
    private final int threads;
    private final List<String> lockNames;
    private final List<FaultyLink> links;
    private final Consumer<SoakEvent> events;
    private int generation;
    private long seed;
    private Process process;
    private Writer commands;
    private CountDownLatch stopped;

    SoakClient(String name, Stage stage, Duration lease, int threads, List<String> lockNames, List<RedisNode> nodes,
               long seed, Consumer<SoakEvent> events) {
        this.name = name;
        this.stage = stage;
        this.lease = lease;
        this.threads = threads;
        this.lockNames = lockNames;
        this.seed = seed;
        this.events = events;
        this.links = nodes.stream().map(node -> FaultyLink.to(node.address())).toList();
        start();
    }

    /** Its links, one per node, for the faults on its side of the wire. */
    List<FaultyLink> links() {
        return links;
    }

    /** The client's current name: its base name, and which life this is after crashes. */
    String current() {
        return name + (generation == 0 ? "" : "#" + generation);
    }

    /** SIGKILL: every hold of this client is abandoned mid-work. Then a fresh JVM takes its place. */
    void crashAndRestart() {
        process.destroyForcibly();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        events.accept(new SoakEvent(System.nanoTime(), System.nanoTime(), current(), SoakEvent.Kind.CRASHED, "-",
                "killed (SIGKILL)"));
        generation++;
        seed++;
        start();
    }

    /** SIGSTOP: a stop-the-world pause of the whole client. */
    void pause() {
        Signals.stop(process);
    }

    /** SIGCONT after {@link #pause()}. */
    void resume() {
        Signals.resume(process);
    }

    /** Asks the workers to finish, unlock and end; waits until they did. */
    void stop(Duration within) throws InterruptedException {
        send("stop");
        if (!stopped.await(within.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new IllegalStateException("soak client " + current() + " did not stop within " + within);
        }
    }

    @Override
    public void close() {
        if (process != null) {
            process.destroyForcibly();
        }
        links.forEach(FaultyLink::close);
    }

    private void start() {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        List<String> command = List.of(java.toString(), "-XX:TieredStopAtLevel=1", "-Xshare:auto", "-Xmx96m",
                "-cp", System.getProperty("java.class.path"), SoakWorkerMain.class.getName(),
                stage.locksClass().getName(), Long.toString(lease.toMillis()),
                links.stream().map(link -> link.address().toString()).collect(Collectors.joining(",")),
                current(), Integer.toString(threads), String.join(",", lockNames), Long.toString(seed));
        try {
            process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start a soak client JVM", e);
        }
        commands = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        CountDownLatch ready = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(1);
        stopped = done;
        Process started = process;
        Thread reader = new Thread(() -> read(started, ready, done), "lockstep-soak-" + current());
        reader.setDaemon(true);
        reader.start();
        try {
            if (!ready.await(STARTUP.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("soak client " + current() + " did not start within " + STARTUP);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting soak client " + current(), e);
        }
    }

    private void read(Process from, CountDownLatch ready, CountDownLatch done) {
        try (BufferedReader out = new BufferedReader(new InputStreamReader(from.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                SoakEvent event = SoakEvent.parse(line);
                if (event == null) {
                    continue;
                }
                switch (event.kind()) {
                    case READY -> ready.countDown();
                    case STOPPED -> done.countDown();
                    default -> events.accept(event);
                }
            }
        } catch (IOException e) {
            // The JVM died: a crash, recorded by whoever killed it.
        }
    }

    private void send(String line) {
        try {
            commands.write(line + "\n");
            commands.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("soak client " + current() + " is gone", e);
        }
    }
}
