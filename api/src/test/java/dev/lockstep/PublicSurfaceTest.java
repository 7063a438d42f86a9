package dev.lockstep;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The api jar shows users their own types only; plumbing stays in the internal package. */
class PublicSurfaceTest {

    private static final Set<String> USER_TYPES = Set.of(
            "dev.lockstep.CompositeLocks", "dev.lockstep.DistLock", "dev.lockstep.FencedLock", "dev.lockstep.Locks", "dev.lockstep.LockOptions", "dev.lockstep.Guarantee",
            "dev.lockstep.LeaseLoss", "dev.lockstep.LeaseLostException", "dev.lockstep.LockException", "dev.lockstep.LockHold", "dev.lockstep.ReadWriteDistLock", "dev.lockstep.RedisUnreachableException",
            "dev.lockstep.RedisRefusedException", "dev.lockstep.LockObserver",
            "dev.lockstep.metrics.MicrometerLockObserver");

    @Test
    void thePublicTypesOutsideTheInternalPackageAreTheUserTypes() throws Exception {
        assertEquals(new TreeSet<>(USER_TYPES), publicTopLevelTypes(), "public types of the api jar, internal aside");
    }

    private static Set<String> publicTopLevelTypes() throws IOException, URISyntaxException, ClassNotFoundException {
        Path classes = Path.of(DistLock.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Set<String> found = new TreeSet<>();
        try (Stream<Path> files = Files.walk(classes)) {
            for (Path file : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".class"))::iterator) {
                String name = classes.relativize(file).toString().replace(file.getFileSystem().getSeparator(), ".")
                        .replaceAll("\\.class$", "");
                if (name.contains("$") || name.endsWith("package-info") || name.startsWith("dev.lockstep.internal.")) {
                    continue;
                }
                if (Modifier.isPublic(Class.forName(name, false, PublicSurfaceTest.class.getClassLoader()).getModifiers())) {
                    found.add(name);
                }
            }
        }
        return found;
    }
}
