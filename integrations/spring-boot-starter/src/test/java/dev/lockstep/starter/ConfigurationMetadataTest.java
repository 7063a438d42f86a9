package dev.lockstep.starter;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The build writes the configuration metadata IDEs complete {@code lockstep.*} from, with the kinds as hints. */
class ConfigurationMetadataTest {

    @Test
    void theMetadataListsEveryPropertyAndTheKinds() throws Exception {
        // The module's own file: the class path holds Spring Boot's files of the same name too.
        Path metadata = Path.of("target/classes/META-INF/spring-configuration-metadata.json");
        assertTrue(Files.isRegularFile(metadata), metadata.toAbsolutePath() + " exists");
        String json = Files.readString(metadata);
        for (String property : new String[] {"lockstep.kind", "lockstep.lease", "lockstep.watchdog-timeout",
            "lockstep.wait", "lockstep.key-prefix", "lockstep.replica-sync.replicas", "lockstep.redlock.nodes",
            "lockstep.redis.host", "lockstep.redis.ssl"}) {
            assertTrue(json.contains("\"name\": \"" + property + "\""), property + " in " + json);
        }
        assertTrue(json.contains("\"value\": \"v7-fencing\""), "the kinds are hints: " + json);
    }
}
