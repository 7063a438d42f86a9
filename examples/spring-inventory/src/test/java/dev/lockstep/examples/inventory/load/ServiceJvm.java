package dev.lockstep.examples.inventory.load;

import dev.lockstep.examples.inventory.InventoryApplication;
import dev.lockstep.testkit.fault.Signals;
import dev.lockstep.testkit.fixture.RedisNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One instance of the service in its own JVM, on a port of its choosing, so that a pause is a
 * real SIGSTOP: every thread, timer and socket of the instance stops at once. Its log goes to a file.
 */
final class ServiceJvm implements Instance {

    private static final Duration STARTUP = Duration.ofSeconds(60);
    private static final Pattern STARTED = Pattern.compile("Tomcat started on port (\\d+)");
    private static final Pattern SELLING = Pattern.compile("Selling \\d+ of ");
    /** The end of a sale: the stock written back, or (stage 7) the order's stale token refused. */
    private static final Pattern SALE_ENDED = Pattern.compile("Sold \\d+ of |Refused token ");

    private final String name;
    private final Process process;
    private final Path log;
    private final CompletableFuture<Integer> port = new CompletableFuture<>();
    private final List<Watch> watches = new ArrayList<>();
    private volatile boolean paused;

    /** Starts an instance on {@code redis} with Spring's {@code --name=value} {@code settings}; returns once it serves HTTP. */
    ServiceJvm(String name, RedisNode redis, List<String> settings, Path log, boolean quickStart) {
        this.name = name;
        this.log = log;
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-Xshare:auto"));
        if (quickStart) {
            // Tests start many instances: compiling less starts each one sooner.
            command.add("-XX:TieredStopAtLevel=1");
        }
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), InventoryApplication.class.getName(),
                "--server.port=0", "--lockstep.redis.host=" + redis.address().getHost(),
                "--lockstep.redis.port=" + redis.address().getPort()));
        command.addAll(settings);
        try {
            Files.createDirectories(log.getParent());
            process = new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + name, e);
        }
        Thread reader = new Thread(this::readLog, "inventory-log-" + name);
        reader.setDaemon(true);
        reader.start();
        try {
            port.get(STARTUP.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            close();
            throw new IllegalStateException("interrupted while " + name + " started", e);
        } catch (ExecutionException | TimeoutException e) {
            close();
            throw new IllegalStateException(name + " did not start within " + STARTUP.toSeconds() + " s; see " + log, e);
        }
    }

    @Override
    public URI uri() {
        return URI.create("http://localhost:" + port.join());
    }

    /**
     * Resolves, with its log line, once the instance logs the {@code count}-th order it starts to
     * sell after this call: it then holds the lock, has read the stock and works.
     */
    CompletableFuture<String> sellingOrder(int count) {
        return watch(SELLING, count);
    }

    /** Resolves, with its log line, once the next sale the instance logs after this call has ended. */
    CompletableFuture<String> saleEnded() {
        return watch(SALE_ENDED, 1);
    }

    private CompletableFuture<String> watch(Pattern pattern, int count) {
        Watch watch = new Watch(pattern, count);
        synchronized (watches) {
            watches.add(watch);
        }
        return watch.seen;
    }

    /** SIGSTOP. */
    void pause() {
        Signals.stop(process);
        paused = true;
    }

    /** SIGCONT, when paused. */
    void resume() {
        if (paused) {
            Signals.resume(process);
            paused = false;
        }
    }

    /** Stops the instance as a deployment does (SIGTERM: Spring closes its beans); kills it if that hangs. */
    @Override
    public void close() {
        resume();
        process.destroy();
        try {
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }

    @Override
    public String toString() {
        return name;
    }

    private void readLog() {
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
             PrintWriter file = new PrintWriter(Files.newBufferedWriter(log))) {
            String line;
            while ((line = lines.readLine()) != null) {
                file.println(line);
                Matcher started = STARTED.matcher(line);
                if (started.find()) {
                    port.complete(Integer.parseInt(started.group(1)));
                }
                hear(line);
            }
        } catch (IOException e) {
            port.completeExceptionally(e);
        }
        port.completeExceptionally(new IllegalStateException(name + " exited"));
    }

    private void hear(String line) {
        synchronized (watches) {
            watches.removeIf(watch -> watch.heard(line));
        }
    }

    /** A wait for the {@code count}-th log line that matches. */
    private static final class Watch {

        private final Pattern pattern;
        private final CompletableFuture<String> seen = new CompletableFuture<>();
        private int left;

        Watch(Pattern pattern, int count) {
            this.pattern = pattern;
            this.left = count;
        }

        /** Counts {@code line}; true once the wait is over. */
        boolean heard(String line) {
            if (pattern.matcher(line).find() && --left == 0) {
                seen.complete(line);
            }
            return left == 0;
        }
    }
}
