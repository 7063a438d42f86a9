package dev.lockstep.examples.inventory;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Spring's own Redis settings ({@code spring.data.redis.*}), read here so that a service already
 * configured for Spring Data Redis or Redisson's starter points Lockstep at the same server.
 *
 * @param host     the server's host name
 * @param port     its port
 * @param username the ACL user; null for the default user
 * @param password the password; null when the server asks for none
 * @param database the database index
 * @param timeout  how long a command may take before the client gives up
 * @param ssl      whether to connect over TLS
 */
@ConfigurationProperties("spring.data.redis")
public record RedisSettings(@DefaultValue("localhost") String host, @DefaultValue("6379") int port, String username,
                            String password, @DefaultValue("0") int database, @DefaultValue("2s") Duration timeout,
                            @DefaultValue Ssl ssl) {

    /** {@code spring.data.redis.ssl.enabled}. */
    public record Ssl(@DefaultValue("false") boolean enabled) {
    }
}
