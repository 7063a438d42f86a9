package dev.lockstep.lock4j;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.baomidou.lock.LockTemplate;
import com.baomidou.lock.annotation.Lock4j;
import com.baomidou.lock.executor.LockExecutor;
import dev.lockstep.Locks;
import dev.lockstep.testkit.client.CriticalSection;
import dev.lockstep.testkit.fixture.SingleNodeTest;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.support.GenericApplicationContext;
import redis.clients.jedis.UnifiedJedis;

/**
 * A Spring Boot 4 application with {@code @Lock4j} methods, this module and lock4j: it starts with
 * every auto-configuration on its class path, lock4j's own included (no exclusion), and two of them
 * on one Redis exclude each other through Lockstep's locks.
 */
class Lock4jOnBoot4Test extends SingleNodeTest {

    private static final long DEADLINE_MILLIS = 20_000;

    private ConfigurableApplicationContext first;
    private ConfigurableApplicationContext second;
    private final CriticalSection section = new CriticalSection();

    /** The application: auto-configuration as any Boot application has it; its {@link Stock} is registered at start. */
    @Configuration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    static class Shop {
    }

    /** A service whose methods lock4j locks, on the key {@code lock4j:stock#<sku>}. */
    static class Stock {

        private final CriticalSection section;

        Stock(CriticalSection section) {
            this.section = section;
        }

        /** One pass through the section shared by both applications; the watchdog renews the lease (expire -1). */
        @Lock4j(name = "stock", keys = "#sku", expire = -1, acquireTimeout = DEADLINE_MILLIS)
        public void sell(String sku) {
            section.pass();
        }

        /** Counts down {@code inside}, then stays until {@code leave} (at most 20 s). */
        @Lock4j(name = "stock", keys = "#sku", acquireTimeout = DEADLINE_MILLIS)
        public void hold(String sku, CountDownLatch inside, CountDownLatch leave) throws InterruptedException {
            inside.countDown();
            leave.await(DEADLINE_MILLIS, TimeUnit.MILLISECONDS);
        }
    }

    @BeforeEach
    void startTwoApplications() {
        first = start();
        second = start();
    }

    @AfterEach
    void stopThem() {
        first.close();
        second.close();
    }

    private ConfigurableApplicationContext start() {
        return new SpringApplicationBuilder(Shop.class)
                .web(WebApplicationType.NONE)
                .initializers(context -> ((GenericApplicationContext) context)
                        .registerBean(Stock.class, () -> new Stock(section)))
                .properties(Map.of("lockstep.redis.host", node.address().getHost(),
                        "lockstep.redis.port", node.address().getPort()))
                .run();
    }

    @Test
    void lock4jRunsOnLockstepsExecutor() {
        List<LockExecutor> executors = List.copyOf(first.getBeansOfType(LockExecutor.class).values());
        assertEquals(1, executors.size(), "executors: " + executors);
        assertInstanceOf(LockstepLockExecutor.class, executors.get(0));
        assertInstanceOf(LockTemplate.class, first.getBean(LockTemplate.class), "lock4j's own template is there");
    }

    @Test
    void whileTheMethodRunsTheKeyIsLockstepsHold() throws Exception {
        CountDownLatch inside = new CountDownLatch(1);
        CountDownLatch leave = new CountDownLatch(1);
        CompletableFuture<Void> holding = CompletableFuture.runAsync(() -> {
            try {
                first.getBean(Stock.class).hold("sku-1", inside, leave);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        String key = "lock4j:stock#sku-1";
        try {
            assertTrue(inside.await(DEADLINE_MILLIS, TimeUnit.MILLISECONDS), "the call is inside");
            Locks locks = first.getBean(Locks.class);
            UnifiedJedis redis = first.getBean(UnifiedJedis.class);
            // Stage 5's layout: a hash named by the lock, one field per owner, clientId:owner -> hold count.
            assertAll(
                    () -> assertTrue(locks.get(key).isLocked(), "Lockstep's lock " + key + " is held"),
                    () -> assertEquals("hash", redis.type(key)),
                    () -> assertTrue(redis.hkeys(key).stream().allMatch(owner -> owner.startsWith(locks.clientId() + ":")),
                            "owned by the first application's client: " + redis.hkeys(key)));
        } finally {
            leave.countDown();
        }
        holding.get(DEADLINE_MILLIS, TimeUnit.MILLISECONDS);
        assertFalse(first.getBean(Locks.class).get(key).isLocked(), "released when the method returned");
    }

    @Test
    void twoApplicationsExcludeEachOther() throws Exception {
        List<Stock> stocks = List.of(first.getBean(Stock.class), second.getBean(Stock.class));
        int threads = 8;
        int callsEach = 25;
        CriticalSection.contend(threads, callsEach, contender -> stocks.get(contender % 2).sell("sku-2"));
        assertAll(
                () -> assertEquals(0, section.overlaps(), "calls inside at once"),
                () -> assertEquals(threads * callsEach, section.counter(), "every call ran, none lost an update"));
    }
}
