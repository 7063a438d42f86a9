package dev.lockstep.fair;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockstep.LockOptions;
import dev.lockstep.testkit.fixture.RedisNode;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.RedisClient;

/** A waiter timeout that is missing or too short to ask again in time is refused at the call, naming it. */
class WaiterTimeoutTest {

    @Test
    void aMissingOrTooShortWaiterTimeoutIsRefused() {
        try (RedisClient nowhere = RedisNode.newClient(new HostAndPort("127.0.0.1", 1))) {
            NullPointerException missing = assertThrows(NullPointerException.class,
                    () -> new FairLocks(nowhere, LockOptions.defaults(), null));
            assertTrue(missing.getMessage().contains("waiterTimeout"), missing.getMessage());
            IllegalArgumentException tooShort = assertThrows(IllegalArgumentException.class,
                    () -> new FairLocks(nowhere, LockOptions.defaults(), Duration.ofMillis(29)));
            assertTrue(tooShort.getMessage().contains("waiterTimeout"), tooShort.getMessage());
            new FairLocks(nowhere, LockOptions.defaults(), Duration.ofMillis(30)).close();
        }
    }
}
