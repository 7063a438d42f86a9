package dev.lockstep.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManagerFactory;

/**
 * A self-signed certificate for {@code localhost} and {@code 127.0.0.1}, made once per JVM with
 * the JDK's own {@code keytool} and written as the PEM files {@code redis-server} reads. Clients
 * trust exactly this certificate. A child JVM is handed the directory ({@link #DIR_PROPERTY}) and
 * uses the same files.
 */
public final class TestCertificates {

    /** The system property that hands a child JVM the directory of the files already made. */
    public static final String DIR_PROPERTY = "lockstep.tls.dir";

    private static final String ALIAS = "redis";
    private static final char[] STORE_PASSWORD = "lockstep".toCharArray();
    private static TestCertificates made;

    private final Path dir;
    private final SSLSocketFactory socketFactory;

    private TestCertificates(Path dir) {
        this.dir = dir;
        this.socketFactory = trusting(keyStore());
    }

    /** The certificates of this JVM: made on first use, or the parent JVM's when {@link #DIR_PROPERTY} names them. */
    public static synchronized TestCertificates get() {
        if (made == null) {
            String given = System.getProperty(DIR_PROPERTY);
            made = new TestCertificates(given != null ? Path.of(given) : generate());
        }
        return made;
    }

    /** The directory holding the files. */
    public Path dir() {
        return dir;
    }

    /** The certificate, PEM: the server's, and the CA clients and replicas trust. */
    public Path certificate() {
        return dir.resolve("redis.crt");
    }

    /** The private key, PEM (PKCS#8). */
    public Path key() {
        return dir.resolve("redis.key");
    }

    /** Sockets that trust this certificate and nothing else. */
    public SSLSocketFactory socketFactory() {
        return socketFactory;
    }

    private KeyStore keyStore() {
        try (InputStream in = Files.newInputStream(dir.resolve("redis.p12"))) {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(in, STORE_PASSWORD);
            return store;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot read the test certificate in " + dir, e);
        }
    }

    private static SSLSocketFactory trusting(KeyStore store) {
        try {
            KeyStore trusted = KeyStore.getInstance(KeyStore.getDefaultType());
            trusted.load(null, null);
            trusted.setCertificateEntry(ALIAS, store.getCertificate(ALIAS));
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(trusted);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, trust.getTrustManagers(), null);
            return context.getSocketFactory();
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("cannot trust the test certificate", e);
        }
    }

    /** Runs keytool for a key pair and self-signed certificate, then writes both as PEM. */
    private static Path generate() {
        try {
            Path dir = Files.createTempDirectory("lockstep-tls");
            Path store = dir.resolve("redis.p12");
            Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
            Process process = new ProcessBuilder(List.of(keytool.toString(), "-genkeypair", "-alias", ALIAS,
                    "-keyalg", "RSA", "-keysize", "2048", "-sigalg", "SHA256withRSA", "-dname", "CN=localhost",
                    "-ext", "SAN=dns:localhost,ip:127.0.0.1", "-validity", "7", "-storetype", "PKCS12",
                    "-keystore", store.toString(), "-storepass", new String(STORE_PASSWORD),
                    "-keypass", new String(STORE_PASSWORD)))
                    .redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IllegalStateException("keytool could not make the test certificate: " + output);
            }
            KeyStore keys = KeyStore.getInstance("PKCS12");
            try (InputStream in = Files.newInputStream(store)) {
                keys.load(in, STORE_PASSWORD);
            }
            Certificate certificate = keys.getCertificate(ALIAS);
            Files.writeString(dir.resolve("redis.crt"), pem("CERTIFICATE", certificate.getEncoded()));
            Files.writeString(dir.resolve("redis.key"),
                    pem("PRIVATE KEY", keys.getKey(ALIAS, STORE_PASSWORD).getEncoded()));
            dir.toFile().deleteOnExit();
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot write the test certificate as PEM", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while making the test certificate", e);
        }
    }

    private static String pem(String type, byte[] der) {
        String base64 = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der);
        return "-----BEGIN " + type + "-----\n" + base64 + "\n-----END " + type + "-----\n";
    }
}
