package dev.lockstep.v6;

import dev.lockstep.testkit.contract.Secured;
import dev.lockstep.testkit.fixture.ServerSecurity;

/** {@link RedLocksTest}'s contract again (the scenarios that open other kinds of connection), on servers that let clients in with a password (requirepass). */
@Secured(ServerSecurity.PASSWORD)
class PasswordServerTest extends RedLocksTest {
}
