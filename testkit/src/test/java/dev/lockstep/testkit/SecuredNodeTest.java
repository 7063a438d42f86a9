package dev.lockstep.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.exceptions.JedisAccessControlException;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;

/** Password, ACL and TLS servers let in exactly the clients they should, through fault links too. */
class SecuredNodeTest {

    @Test
    void aPasswordServerRefusesAClientWithoutItAndServesOneWithIt() {
        try (RedisFixture fixture = RedisFixture.processes(ServerSecurity.PASSWORD)) {
            RedisNode node = fixture.start();
            try (RedisClient plain = RedisNode.newClient(node.address());
                 RedisClient withPassword = node.newClient()) {
                JedisDataException refused = assertThrows(JedisDataException.class, () -> plain.set("k", "v"));
                assertTrue(refused.getMessage().startsWith("NOAUTH"), refused.getMessage());
                assertEquals("OK", withPassword.set("k", "v"));
            }
        }
    }

    @Test
    void anAclUserMayRunWhatItsRuleAllowsAndNothingElse() {
        try (RedisFixture fixture = RedisFixture.processes()) {
            RedisNode node = fixture.start();
            AclUser user = new AclUser("reader", "pw", List.of("on", ">pw", "~orders", "-@all", "+get", "+ping"));
            user.createOn(node);
            try (RedisClient client = user.clientOf(node)) {
                assertEquals(null, client.get("orders"));
                JedisAccessControlException refused = assertThrows(JedisAccessControlException.class,
                        () -> client.set("orders", "1"));
                assertTrue(refused.getMessage().contains("'set'"), refused.getMessage());
                assertThrows(JedisAccessControlException.class, () -> client.get("invoices"));
            }
        }
    }

    @Test
    void aTlsServerHasNoPlainTextPortAndServesTlsClientsDirectlyAndThroughALink() {
        assumeTrue(RedisBinary.get().supportsTls(), "redis-server was built without TLS");
        try (RedisFixture fixture = RedisFixture.processes(ServerSecurity.TLS)) {
            RedisNode node = fixture.start();
            try (RedisClient tls = node.newClient(); RedisClient plain = RedisNode.newClient(node.address())) {
                assertEquals("OK", tls.set("k", "v"));
                assertThrows(JedisConnectionException.class, () -> plain.get("k"), "a plain-text client got in");
            }
            try (FaultyLink link = FaultyLink.to(node.address());
                 RedisClient throughLink = RedisNode.newClient(link.address(), ServerSecurity.TLS)) {
                assertEquals("v", throughLink.get("k"), "TLS passes a link, which only copies bytes");
            }
        }
    }

    @Test
    void theCertificateFilesAreMadeOnceAndArePem() throws Exception {
        TestCertificates certificates = TestCertificates.get();
        assertTrue(Files.readString(certificates.certificate()).startsWith("-----BEGIN CERTIFICATE-----"));
        assertTrue(Files.readString(certificates.key()).startsWith("-----BEGIN PRIVATE KEY-----"));
        assertSame(certificates, TestCertificates.get(), "made once per JVM");
    }
}
