package dev.lockstep.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code redis-server} executable the fixtures start: {@code $LOCKSTEP_REDIS_SERVER}, else
 * {@code redis-server} on the {@code PATH}, else the binary bundled in the embedded-redis jar
 * (Redis 6.2), so a machine with only a JDK runs everything. Any {@code redis-server} 6.2 or newer
 * will do, whatever its file is called: Debian's and Ubuntu's {@code /usr/bin/redis-server} is a
 * link to {@code redis-check-rdb}, a binary that serves when started under a name with
 * {@code redis-server} in it. Nothing here relies on the name of the file that finally runs.
 *
 * @param path    the executable
 * @param source  where it was found, for the log
 * @param version what {@code redis-server --version} reports, e.g. {@code 6.2.6}
 */
public record RedisBinary(Path path, String source, String version) {

    private static final Logger log = LoggerFactory.getLogger(RedisBinary.class);
    private static final Pattern VERSION = Pattern.compile("v=(\\S+)");
    private static volatile RedisBinary resolved;
    private static final Map<Path, Boolean> TLS = new ConcurrentHashMap<>();

    /** The binary for this JVM, resolved once and named in the log. */
    public static RedisBinary get() {
        RedisBinary binary = resolved;
        if (binary == null) {
            synchronized (RedisBinary.class) {
                binary = resolved;
                if (binary == null) {
                    binary = resolve();
                    log.info("redis-server {} from {}: {} (runs {})", binary.version, binary.source, binary.path,
                            binary.realPath());
                    resolved = binary;
                }
            }
        }
        return binary;
    }

    /** A binary at {@code path}, as found in {@code source}, asked for its version. */
    public static RedisBinary at(Path path, String source) {
        if (!Files.isExecutable(path)) {
            throw new IllegalStateException(source + ": " + path + " is not an executable file");
        }
        return describe(path, source);
    }

    /** The file that actually runs: {@link #path()} with every symbolic link resolved. */
    public Path realPath() {
        try {
            return path.toRealPath();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot resolve " + path, e);
        }
    }

    /**
     * Whether this binary was built with TLS, asked once: started with a TLS port and no
     * certificate, a TLS build refuses at once for want of its key file; a build without TLS never
     * mentions one.
     */
    public boolean supportsTls() {
        return TLS.computeIfAbsent(path, p -> {
            try (ServerSocket free = new ServerSocket(0)) {
                int port = free.getLocalPort();
                free.close();
                Process process = new ProcessBuilder(p.toString(), "--port", "0", "--tls-port", Integer.toString(port),
                        "--save", "", "--appendonly", "no").redirectErrorStream(true).start();
                if (!process.waitFor(5, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor();
                }
                String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                boolean tls = output.contains("tls-key-file") || output.contains("Failed to configure TLS");
                log.info("redis-server {} at {} was built {}", version, p, tls ? "with TLS" : "without TLS");
                return tls;
            } catch (IOException e) {
                throw new UncheckedIOException("cannot run " + p, e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while asking " + p + " about TLS", e);
            }
        });
    }

    /** The major.minor version as a number, e.g. 6.2, for features newer servers have. */
    public double majorMinor() {
        String[] parts = version.split("\\.");
        return Double.parseDouble(parts[0] + "." + (parts.length > 1 ? parts[1] : "0"));
    }

    private static RedisBinary resolve() {
        String fromEnv = System.getenv("LOCKSTEP_REDIS_SERVER");
        if (fromEnv != null && !fromEnv.isBlank()) {
            return at(Path.of(fromEnv), "$LOCKSTEP_REDIS_SERVER");
        }
        String pathVar = System.getenv().getOrDefault("PATH", "");
        for (String dir : pathVar.split(java.io.File.pathSeparator)) {
            Path candidate = Path.of(dir.isEmpty() ? "." : dir, "redis-server");
            if (Files.isExecutable(candidate)) {
                return describe(candidate, "PATH");
            }
        }
        return describe(extractBundled(), "the embedded-redis jar");
    }

    private static Path extractBundled() {
        String resource = bundledResourceName();
        try (InputStream in = RedisBinary.class.getResourceAsStream("/" + resource)) {
            if (in == null) {
                throw new IllegalStateException("no redis-server on PATH and the embedded-redis jar has no " + resource
                        + "; install Redis or set LOCKSTEP_REDIS_SERVER");
            }
            Path dir = Files.createTempDirectory("lockstep-redis-bin");
            Path binary = dir.resolve("redis-server");
            Files.copy(in, binary, StandardCopyOption.REPLACE_EXISTING);
            if (!binary.toFile().setExecutable(true)) {
                throw new IllegalStateException("cannot make " + binary + " executable");
            }
            binary.toFile().deleteOnExit();
            dir.toFile().deleteOnExit();
            return binary;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String bundledResourceName() {
        String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch").toLowerCase(Locale.ROOT);
        boolean arm = arch.contains("aarch64") || arch.contains("arm");
        if (os.contains("linux")) {
            return arm ? "redis-server-6.2.7-linux-arm64" : "redis-server-6.2.6-v5-linux-amd64";
        }
        if (os.contains("mac")) {
            return arm ? "redis-server-6.2.6-v5-darwin-arm64" : "redis-server-6.2.6-v5-darwin-amd64";
        }
        throw new IllegalStateException("no bundled redis-server for " + os + "/" + arch
                + "; install Redis or set LOCKSTEP_REDIS_SERVER");
    }

    private static RedisBinary describe(Path path, String source) {
        try {
            Process process = new ProcessBuilder(path.toString(), "--version").redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
            Matcher m = VERSION.matcher(output);
            if (!m.find()) {
                throw new IllegalStateException(path + " --version said: " + output.strip());
            }
            return new RedisBinary(path, source, m.group(1));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + path, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while asking " + path + " for its version", e);
        }
    }
}
