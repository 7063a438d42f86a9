package dev.lockstep.starter;

import java.util.List;
import redis.clients.jedis.UnifiedJedis;

/**
 * Clients of RedLock's masters besides the main connection ({@code lockstep.redlock.nodes}), a bean
 * of its own so Spring closes them after the locks that use them; empty for every other kind.
 *
 * @param clients one client per other master
 */
public record RedlockNodes(List<UnifiedJedis> clients) implements AutoCloseable {

    /** Closes every client. */
    @Override
    public void close() {
        clients.forEach(UnifiedJedis::close);
    }
}
