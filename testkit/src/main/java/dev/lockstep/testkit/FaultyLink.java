package dev.lockstep.testkit;

import java.time.Duration;
import redis.clients.jedis.HostAndPort;

/** Placeholder: being written (see helper task). */
public final class FaultyLink implements AutoCloseable {
    public static FaultyLink to(HostAndPort target) { throw new UnsupportedOperationException(); }
    public HostAndPort address() { throw new UnsupportedOperationException(); }
    public void blackhole() { throw new UnsupportedOperationException(); }
    public void delay(Duration delay) { throw new UnsupportedOperationException(); }
    public void heal() { throw new UnsupportedOperationException(); }
    @Override public void close() { }
}
