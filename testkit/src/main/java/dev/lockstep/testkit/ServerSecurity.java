package dev.lockstep.testkit;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.JedisClientConfig;

/** How a test server lets clients in: as it comes, with a password, or over TLS only. */
public enum ServerSecurity {

    /** Plain TCP, no password: the default. */
    NONE,
    /** {@code requirepass} on the default user; replicas log in to their master with it too. */
    PASSWORD,
    /** TLS only, no plain-text port, with {@link TestCertificates}; replicas replicate over TLS. */
    TLS;

    /** The password of {@link #PASSWORD} servers. */
    public static final String PASSWORD_TEXT = "lockstep-test-secret";

    /** The options that make a server listen on {@code port} this way. */
    public List<String> serverArgs(int port) {
        List<String> args = new ArrayList<>();
        switch (this) {
            case NONE -> args.addAll(List.of("--port", Integer.toString(port)));
            case PASSWORD -> args.addAll(List.of("--port", Integer.toString(port),
                    "--requirepass", PASSWORD_TEXT, "--masterauth", PASSWORD_TEXT));
            case TLS -> {
                TestCertificates certificates = TestCertificates.get();
                args.addAll(List.of("--port", "0", "--tls-port", Integer.toString(port),
                        "--tls-cert-file", certificates.certificate().toString(),
                        "--tls-key-file", certificates.key().toString(),
                        "--tls-ca-cert-file", certificates.certificate().toString(),
                        "--tls-auth-clients", "no", "--tls-replication", "yes"));
            }
        }
        return args;
    }

    /** Client settings for a server of this kind, with {@code timeout} for connecting and reading. */
    public DefaultJedisClientConfig.Builder clientConfig(Duration timeout) {
        int millis = (int) timeout.toMillis();
        DefaultJedisClientConfig.Builder builder = DefaultJedisClientConfig.builder()
                .connectionTimeoutMillis(millis)
                .socketTimeoutMillis(millis);
        return switch (this) {
            case NONE -> builder;
            case PASSWORD -> builder.password(PASSWORD_TEXT);
            case TLS -> builder.ssl(true).sslSocketFactory(TestCertificates.get().socketFactory());
        };
    }

    /** The same, built: what a pooled client of such a server uses. */
    public JedisClientConfig clientConfig() {
        return clientConfig(RedisNode.CLIENT_TIMEOUT).build();
    }
}
