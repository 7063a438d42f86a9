package dev.lockstep.v5;

import dev.lockstep.testkit.ServerSecurity;
import dev.lockstep.testkit.contract.Secured;

/** {@link PubSubLocksTest}'s whole contract again, on servers that let clients in with a password (requirepass). */
@Secured(ServerSecurity.PASSWORD)
class PasswordServerTest extends PubSubLocksTest {
}
