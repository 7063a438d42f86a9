package dev.lockstep.testkit.contract;

import dev.lockstep.testkit.fixture.ServerSecurity;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs a {@link LockContract} on servers that let clients in as {@link #value()} says: with a
 * password, or over TLS only (skipped, and logged, when the binary was built without TLS).
 * Every client the contract opens follows, child JVMs and clients behind fault links included.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface Secured {

    /** How the servers let clients in. */
    ServerSecurity value();
}
