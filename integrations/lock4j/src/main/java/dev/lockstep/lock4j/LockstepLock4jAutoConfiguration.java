package dev.lockstep.lock4j;

import com.baomidou.lock.executor.LockExecutor;
import dev.lockstep.Locks;
import dev.lockstep.starter.LockstepAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * The executor lock4j's own auto-configuration needs: its {@code LockTemplate} refuses to start
 * without a {@link LockExecutor}, and lock4j's executors come in starters built for Spring Boot 2
 * and 3. This one runs {@code @Lock4j} and {@code LockTemplate} on the starter's {@link Locks}.
 */
@AutoConfiguration(after = LockstepAutoConfiguration.class,
        beforeName = "com.baomidou.lock.spring.boot.autoconfigure.LockAutoConfiguration")
public class LockstepLock4jAutoConfiguration {

    /** lock4j's executor over the application's {@link Locks}, unless the application defines one itself. */
    @Bean
    @ConditionalOnMissingBean(LockstepLockExecutor.class)
    public LockstepLockExecutor lockstepLockExecutor(Locks locks) {
        return new LockstepLockExecutor(locks);
    }
}
