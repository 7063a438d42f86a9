package dev.lockstep.examples.inventory;

import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Which lock the service takes ({@code lockstep.*}).
 *
 * @param stage a stage of the course, {@code v1-setnx} to {@code v7-fencing}, or {@code none}
 * @param lease how long a lock outlives a holder that stops renewing it: the fixed lease of stages
 *              1-3, the watchdog's lease from stage 4 on; null for the library's 30 s
 * @param nodes for {@code v6-redlock}: the other independent masters ({@code host:port}), with the
 *              same credentials as {@code spring.data.redis}
 */
@ConfigurationProperties("lockstep")
public record LockstepSettings(@DefaultValue("v7-fencing") String stage, Duration lease,
                               @DefaultValue List<String> nodes) {
}
