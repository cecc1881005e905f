package dev.gradcheck.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Byte-for-byte comparison against files in src/test/resources/golden/.
 *
 * <p>To regenerate after an intended output change, run
 * {@code mvn -o test -Dtest='dev.gradcheck.report.*Test' -Dgolden.update=true}: the tests then write the goldens
 * instead of comparing (and pass). Review the diff with {@code git diff src/test/resources/golden} before keeping
 * it: the goldens are the contract CI users script against.
 *
 * <p>Goldens are read from the source tree, not the classpath, so an update is visible to the next run without a
 * resources copy step.
 */
final class Golden {

    static final String UPDATE_PROPERTY = "golden.update";

    private Golden() {}

    static void assertMatches(String fileName, String actual) throws IOException {
        Path file = dir().resolve(fileName);
        if (Boolean.getBoolean(UPDATE_PROPERTY)) {
            Files.createDirectories(file.getParent());
            Files.writeString(file, actual, StandardCharsets.UTF_8);
            return;
        }
        assertTrue(Files.exists(file), "missing golden " + file + "; create it with -D" + UPDATE_PROPERTY + "=true");
        String expected = Files.readString(file, StandardCharsets.UTF_8);
        assertEquals(expected, actual, "output differs from golden " + file
                + " (if the change is intended, regenerate with -D" + UPDATE_PROPERTY + "=true and review the diff)");
    }

    /** Surefire runs tests in the module directory and also passes it as {@code basedir}. */
    private static Path dir() {
        return Path.of(System.getProperty("basedir", "."), "src", "test", "resources", "golden");
    }
}
