package dev.lockstep.examples.inventory;

import dev.lockstep.LockOptions;
import dev.lockstep.Locks;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnExpression;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.UnifiedJedis;

/**
 * Lockstep as a Spring service wires it: one Jedis client from {@code spring.data.redis}, one
 * {@link Locks} from {@code lockstep.*}. Spring closes both on shutdown, the locks first.
 */
@Configuration(proxyBeanMethods = false)
class LockstepConfiguration {

    private static final Logger log = LoggerFactory.getLogger(LockstepConfiguration.class);

    /** The Redis of {@code spring.data.redis}: the stock lives there, and so does the lock. */
    @Bean
    UnifiedJedis redis(RedisSettings redis) {
        return client(redis, new HostAndPort(redis.host(), redis.port()));
    }

    /** For {@code v6-redlock}: the masters {@code lockstep.nodes} lists besides the first; closed on shutdown. */
    @Bean
    OtherMasters otherMasters(LockstepSettings lockstep, RedisSettings redis) {
        List<UnifiedJedis> clients = new ArrayList<>();
        for (String node : lockstep.nodes()) {
            clients.add(client(redis, HostAndPort.from(node)));
        }
        return new OtherMasters(clients);
    }

    /** The lock client of {@code lockstep.stage}; there is none for {@code none}. */
    @Bean
    @ConditionalOnExpression("'${lockstep.stage:v7-fencing}' != 'none'")
    Locks locks(LockstepSettings lockstep, UnifiedJedis redis, OtherMasters others) {
        LockOptions options = LockOptions.defaults();
        if (lockstep.lease() != null) {
            options = options.withLease(lockstep.lease()).withWatchdogTimeout(lockstep.lease());
        }
        List<UnifiedJedis> nodes = new ArrayList<>(List.of(redis));
        nodes.addAll(others.clients());
        Stage stage = Stage.of(lockstep.stage());
        log.info("Orders take the {} lock on {} Redis node(s), lease {}", stage, nodes.size(), options.lease());
        return stage.open(nodes, options);
    }

    private static UnifiedJedis client(RedisSettings redis, HostAndPort address) {
        JedisClientConfig config = DefaultJedisClientConfig.builder()
                .user(redis.username()).password(redis.password()).database(redis.database())
                .ssl(redis.ssl().enabled()).timeoutMillis((int) redis.timeout().toMillis())
                .clientName("inventory").build();
        return RedisClient.builder().hostAndPort(address).clientConfig(config).build();
    }

    /** Clients of RedLock's other masters. */
    record OtherMasters(List<UnifiedJedis> clients) implements AutoCloseable {

        @Override
        public void close() {
            clients.forEach(UnifiedJedis::close);
        }
    }
}
