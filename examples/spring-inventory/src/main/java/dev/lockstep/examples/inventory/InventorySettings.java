package dev.lockstep.examples.inventory;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How an order behaves ({@code inventory.*}).
 *
 * @param lockWait how long an order waits for its product's lock before the service answers 503
 * @param work     how long an order works between reading the stock and writing it back: the
 *                 payment, the database, the calls a real service makes while it holds the lock
 * @param locked   false: orders take no lock at all, as the articles' service does before they add one
 */
@ConfigurationProperties("inventory")
public record InventorySettings(@DefaultValue("5s") Duration lockWait, @DefaultValue("10ms") Duration work,
                                @DefaultValue("true") boolean locked) {
}
