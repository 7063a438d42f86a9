package dev.lockstep.lab;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManagerFactory;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.util.JedisURIHelper;

/** Clients for {@code redis://} and {@code rediss://} URLs, with their user, password, database and TLS. */
final class RedisUrls {

    private RedisUrls() {
    }

    /**
     * One client per URL, trusting the CA certificate in {@code trust} (null: the JDK's) over TLS;
     * every client made is also added to {@code all}, so the caller closes them even if a later URL fails.
     */
    static List<RedisClient> connect(List<URI> urls, Path trust, List<RedisClient> all) {
        SSLSocketFactory trusted = trust == null ? null : trusting(trust);
        List<RedisClient> made = new ArrayList<>();
        for (URI url : urls) {
            if (!JedisURIHelper.isValid(url)) {
                throw new IllegalArgumentException("--url must look like redis://[user:password@]host:port, was "
                        + withoutPassword(url));
            }
            RedisClient client = RedisClient.builder()
                    .hostAndPort(JedisURIHelper.getHostAndPort(url))
                    .clientConfig(DefaultJedisClientConfig.builder()
                            .user(JedisURIHelper.getUser(url))
                            .password(JedisURIHelper.getPassword(url))
                            .database(JedisURIHelper.getDBIndex(url))
                            .ssl(JedisURIHelper.isRedisSSLScheme(url))
                            .sslSocketFactory(trusted)
                            .connectionTimeoutMillis(2000)
                            .socketTimeoutMillis(2000)
                            .build())
                    .build();
            made.add(client);
            all.add(client);
        }
        return made;
    }

    /** {@code url} fit to print: its password, if any, replaced by {@code ***}. */
    static String withoutPassword(URI url) {
        return url.getUserInfo() == null ? url.toString() : url.toString().replace(url.getRawUserInfo(),
                url.getUserInfo().contains(":") ? url.getUserInfo().substring(0, url.getUserInfo().indexOf(':')) + ":***"
                        : "***");
    }

    /** Sockets that trust the CA certificate in {@code pem}, and nothing else. */
    private static SSLSocketFactory trusting(Path pem) {
        try (InputStream in = Files.newInputStream(pem)) {
            KeyStore trusted = KeyStore.getInstance(KeyStore.getDefaultType());
            trusted.load(null, null);
            trusted.setCertificateEntry("ca", CertificateFactory.getInstance("X.509").generateCertificate(in));
            TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            factory.init(trusted);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, factory.getTrustManagers(), null);
            return context.getSocketFactory();
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalArgumentException("--trust " + pem + " is not a readable PEM certificate: "
                    + e.getMessage(), e);
        }
    }
}
