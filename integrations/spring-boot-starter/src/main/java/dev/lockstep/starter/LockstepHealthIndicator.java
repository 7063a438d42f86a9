package dev.lockstep.starter;

import dev.lockstep.Locks;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import redis.clients.jedis.UnifiedJedis;

/** UP when the locks' Redis answers PING, with the lock kind and client id; DOWN with the error when it does not. */
public class LockstepHealthIndicator extends AbstractHealthIndicator {

    private final UnifiedJedis redis;
    private final Locks locks;
    private final String kind;

    /** Pings {@code redis}, the connection of {@code locks}, a client of {@code kind}. */
    public LockstepHealthIndicator(UnifiedJedis redis, Locks locks, String kind) {
        super("Lockstep's Redis did not answer PING");
        this.redis = redis;
        this.locks = locks;
        this.kind = kind;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        builder.withDetail("kind", kind).withDetail("clientId", locks.clientId());
        if ("PONG".equals(redis.ping())) {
            builder.up();
        } else {
            builder.down();
        }
    }
}
