package dev.lockstep.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.lockstep.testkit.fixture.AclUser;
import dev.lockstep.testkit.fixture.RedisBinary;
import dev.lockstep.testkit.fixture.RedisFixture;
import dev.lockstep.testkit.fixture.RedisNode;
import dev.lockstep.testkit.fixture.ServerSecurity;
import dev.lockstep.testkit.fixture.TestCertificates;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import picocli.CommandLine;
import redis.clients.jedis.Jedis;

/** {@code lab check} on a server with the ACL user stage 5's lesson documents, and with one permission less. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CheckCommandTest {

    private static final AclUser DOCUMENTED = AclUser.documentedIn(Path.of("..", "v5-pubsub-retry", "README.md"));

    private StringWriter out;
    private StringWriter err;
    private RedisFixture fixture;
    private RedisNode node;

    @BeforeAll
    void start() {
        fixture = RedisFixture.processes();
        node = fixture.start();
    }

    @AfterAll
    void stop() {
        fixture.close();
    }

    @BeforeEach
    void freshOutput() {
        out = new StringWriter();
        err = new StringWriter();
    }

    @Test
    void everyCheckPassesUnderTheDocumentedRule() {
        DOCUMENTED.createOn(node);

        int status = check(DOCUMENTED, "orders");

        assertEquals(0, status, out + "\n" + err);
        System.out.println(out);
        assertTrue(out.toString().contains("every check passed"), out::toString);
        assertTrue(out.toString().contains("ok    renew"), out::toString);
        assertFalse(out.toString().contains(DOCUMENTED.password()), "the password is not printed: " + out);
    }

    @Test
    void aMissingPermissionFailsTheCheckNamingIt() {
        AclUser tighter = DOCUMENTED.without("+subscribe");
        tighter.createOn(node);

        int status = check(tighter, "orders");

        assertEquals(1, status, out::toString);
        assertTrue(out.toString().contains("FAIL  a second client waits"), out::toString);
        assertTrue(out.toString().contains("'subscribe'"), out::toString);
        try (Jedis admin = node.admin()) {
            assertEquals(0, admin.dbSize(), "the failed check left a key");
        }
    }

    @Test
    void overTlsTheCheckTrustsTheCertificateItIsGiven() {
        assumeTrue(RedisBinary.get().supportsTls(), "redis-server was built without TLS");
        try (RedisFixture tlsFixture = RedisFixture.processes(ServerSecurity.TLS)) {
            RedisNode tlsNode = tlsFixture.start();
            DOCUMENTED.createOn(tlsNode);
            String url = "rediss://" + DOCUMENTED.name() + ":" + DOCUMENTED.password() + "@127.0.0.1:"
                    + tlsNode.address().getPort();
            int status = new CommandLine(new Lab()).setOut(new PrintWriter(out)).setErr(new PrintWriter(err))
                    .execute("check", "--url", url, "--name", "orders",
                            "--trust", TestCertificates.get().certificate().toString());

            assertEquals(0, status, out + "\n" + err);
            assertTrue(out.toString().contains("every check passed"), out::toString);
        }
    }

    private int check(AclUser user, String name) {
        String url = "redis://" + user.name() + ":" + user.password() + "@" + node.address().getHost() + ":"
                + node.address().getPort();
        return new CommandLine(new Lab()).setOut(new PrintWriter(out)).setErr(new PrintWriter(err))
                .execute("check", "--url", url, "--stage", "v5-pubsub-retry", "--name", name);
    }
}
