package dev.lockstep.starter;

import java.time.Duration;
import java.util.Objects;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;
import redis.clients.jedis.ConnectionPoolConfig;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.UnifiedJedis;

/**
 * Where Redis is and how to log in: {@code lockstep.redis.*} when set, else Spring's own
 * {@code spring.data.redis.*}, so a service already set up for Spring Data Redis or Redisson's
 * starter points its locks at the same server without a second setting.
 */
record RedisEndpoint(String host, int port, String username, String password, int database, Duration timeout,
                     boolean ssl) {

    /** The endpoint {@code lockstep} names, or else the one {@code spring.data.redis} names. */
    static RedisEndpoint of(LockstepProperties.Redis lockstep, Environment environment) {
        LockstepProperties.Redis chosen = lockstep.isSet() ? lockstep : Binder.get(environment)
                .bind("spring.data.redis", SpringDataRedis.class).map(SpringDataRedis::asLockstep)
                .orElse(lockstep);
        return new RedisEndpoint(Objects.requireNonNullElse(chosen.host(), "localhost"),
                Objects.requireNonNullElse(chosen.port(), 6379), chosen.username(), chosen.password(),
                Objects.requireNonNullElse(chosen.database(), 0),
                Objects.requireNonNullElse(chosen.timeout(), Duration.ofSeconds(2)),
                Objects.requireNonNullElse(chosen.ssl(), false));
    }

    /** The main server's address. */
    HostAndPort address() {
        return new HostAndPort(host, port);
    }

    /**
     * A new pooled client of the server at {@code address} with this endpoint's credentials; the
     * caller closes it. A caller waits for a pooled connection at most the timeout: with the pool's
     * default of "forever", commons-pool2 (2.13.1) retries without pause while a connection is being
     * made, and a crowd of virtual threads doing so starves the one making it.
     */
    UnifiedJedis connect(HostAndPort address) {
        DefaultJedisClientConfig config = DefaultJedisClientConfig.builder().user(username).password(password)
                .database(database).ssl(ssl).timeoutMillis((int) timeout.toMillis()).clientName("lockstep").build();
        ConnectionPoolConfig pool = new ConnectionPoolConfig();
        pool.setMaxWait(timeout);
        return RedisClient.builder().hostAndPort(address).clientConfig(config).poolConfig(pool).build();
    }

    @Override
    public String toString() {
        // Never the password: this string reaches logs.
        return host + ":" + port + "/" + database + (ssl ? " over TLS" : "");
    }

    /** The part of {@code spring.data.redis.*} that says where Redis is; bound here, so Spring Data need not be present. */
    record SpringDataRedis(String host, Integer port, String username, String password, Integer database,
                           Duration timeout, Ssl ssl) {

        LockstepProperties.Redis asLockstep() {
            return new LockstepProperties.Redis(host, port, username, password, database, timeout,
                    ssl == null ? null : ssl.enabled());
        }

        /** {@code spring.data.redis.ssl.enabled}. */
        record Ssl(Boolean enabled) {
        }
    }
}
