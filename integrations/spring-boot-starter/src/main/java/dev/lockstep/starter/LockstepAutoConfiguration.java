package dev.lockstep.starter;

import dev.lockstep.LockObserver;
import dev.lockstep.LockOptions;
import dev.lockstep.Locks;
import dev.lockstep.metrics.MicrometerLockObserver;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Role;
import org.springframework.core.env.Environment;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.UnifiedJedis;

/**
 * Lockstep in a Spring Boot application: a Redis client, a {@link Locks} of {@code lockstep.kind},
 * {@link Locked} methods, and, when the application has them, meters, observations, a health
 * indicator and the Actuator endpoint {@code locks}. Every bean steps aside for one of the
 * application's own. On shutdown Spring closes the locks (their watchdog stops; holds expire with
 * their lease) before the Redis clients they use.
 */
@AutoConfiguration
@EnableConfigurationProperties(LockstepProperties.class)
public class LockstepAutoConfiguration {

    private static final Logger log = LoggerFactory.getLogger(LockstepAutoConfiguration.class);

    /** The Redis of {@code lockstep.redis.*}, else of {@code spring.data.redis.*}. */
    @Bean
    @ConditionalOnMissingBean
    public UnifiedJedis lockstepRedis(LockstepProperties properties, Environment environment) {
        RedisEndpoint endpoint = RedisEndpoint.of(properties.redis(), environment);
        return endpoint.connect(endpoint.address());
    }

    /** RedLock's other masters ({@code lockstep.redlock.nodes}), with the main connection's credentials. */
    @Bean
    @ConditionalOnMissingBean
    public RedlockNodes lockstepRedlockNodes(LockstepProperties properties, Environment environment) {
        RedisEndpoint endpoint = RedisEndpoint.of(properties.redis(), environment);
        List<UnifiedJedis> clients = new ArrayList<>();
        for (String node : properties.redlock().nodes()) {
            clients.add(endpoint.connect(HostAndPort.from(node)));
        }
        return new RedlockNodes(clients);
    }

    /** The lock client of {@code lockstep.kind}, telling the application's {@link LockObserver}, if any, what it does. */
    @Bean
    @ConditionalOnMissingBean
    public Locks lockstepLocks(LockstepProperties properties, UnifiedJedis redis, RedlockNodes redlockNodes,
                               ObjectProvider<LockObserver> observer) {
        LockOptions options = properties.options(observer.getIfUnique(() -> LockObserver.NONE));
        List<UnifiedJedis> nodes = new ArrayList<>(List.of(redis));
        nodes.addAll(redlockNodes.clients());
        LockKind kind = properties.lockKind();
        log.info("Lockstep: {} locks on {} Redis node(s)", kind, kind == LockKind.V6_REDLOCK ? nodes.size() : 1);
        return kind.open(kind == LockKind.V6_REDLOCK ? nodes : List.of(redis), options);
    }

    /**
     * Locks the methods annotated {@link Locked}, observing their waits and holds when the
     * application has an {@link ObservationRegistry}; static, as a post-processor must be, so it
     * reaches the locks lazily.
     */
    @Bean
    @ConditionalOnMissingBean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    public static LockedMethodsPostProcessor lockedMethodsPostProcessor(ObjectProvider<Locks> locks,
                                                                        ObjectProvider<LockstepProperties> properties,
                                                                        ObjectProvider<ObservationRegistry> observations,
                                                                        Environment environment) {
        return new LockedMethodsPostProcessor(locks, properties, observations, environment);
    }

    /** Meters, when Micrometer is on the class path and the application has a registry. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "io.micrometer.core.instrument.MeterRegistry")
    static class Meters {

        /** Lock events as meters in the application's registry; nothing observed without one. */
        @Bean
        @ConditionalOnMissingBean
        LockObserver lockstepMeters(ObjectProvider<MeterRegistry> registry) {
            MeterRegistry meters = registry.getIfUnique();
            return meters == null ? LockObserver.NONE : new MicrometerLockObserver(meters);
        }
    }

    /** A health indicator, when Boot's health module is on the class path. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.springframework.boot.health.contributor.HealthIndicator")
    static class Health {

        /** UP when Redis answers PING, with the kind; {@code management.health.lockstep.enabled=false} turns it off. */
        @Bean
        // On the method, not the class: the class's annotations are read even when the health module is absent.
        @ConditionalOnEnabledHealthIndicator("lockstep")
        @ConditionalOnMissingBean(name = "lockstepHealthIndicator")
        LockstepHealthIndicator lockstepHealthIndicator(UnifiedJedis redis, Locks locks, LockstepProperties properties) {
            return new LockstepHealthIndicator(redis, locks, properties.kind());
        }
    }

    /** The Actuator endpoint {@code locks}, when Actuator is on the class path. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint")
    static class Actuator {

        /** What this instance holds; there when exposed ({@code management.endpoints.web.exposure.include=locks}). */
        @Bean
        // On the method, not the class, as with the health indicator.
        @ConditionalOnAvailableEndpoint
        @ConditionalOnMissingBean
        LocksEndpoint locksEndpoint(Locks locks, LockstepProperties properties) {
            return new LocksEndpoint(locks, properties.lockKind());
        }
    }
}
