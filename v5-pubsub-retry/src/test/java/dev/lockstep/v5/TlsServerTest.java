package dev.lockstep.v5;

import dev.lockstep.testkit.contract.Secured;
import dev.lockstep.testkit.fixture.ServerSecurity;

/** {@link PubSubLocksTest}'s contract again (the scenarios that open other kinds of connection), on servers that let clients in over TLS only, with a certificate made at test time. */
@Secured(ServerSecurity.TLS)
class TlsServerTest extends PubSubLocksTest {
}
