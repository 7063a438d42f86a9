package dev.lockstep.lab;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.ConnectionFactory;
import redis.clients.jedis.ConnectionPool;

/**
 * A run's output is its report: the pool's idle check, which warns with a stack trace about every
 * connection the explorer or a scenario dropped on purpose, stays out of it; other warnings stay in.
 */
class LogLevelsTest {

    @Test
    void thePoolsIdleCheckOfADroppedConnectionStaysOutOfTheReport() {
        Logger idleCheck = LoggerFactory.getLogger(ConnectionFactory.class);
        assertFalse(idleCheck.isWarnEnabled(), "'Error while validating pooled Connection object' would print");
        assertTrue(idleCheck.isErrorEnabled(), "the connection factory's errors (a failed re-authentication) went too");
    }

    @Test
    void otherWarningsStayVisible() {
        assertTrue(LoggerFactory.getLogger(ConnectionPool.class).isWarnEnabled(), "the rest of Jedis went quiet");
        assertTrue(LoggerFactory.getLogger("dev.lockstep.testkit").isWarnEnabled(), "the testkit went quiet");
    }
}
