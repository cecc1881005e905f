package dev.gradcheck.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.ExampleBuild;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Element;

/**
 * examples/library-test, a Maven project that uses gradcheck from its JUnit tests, builds and passes against the
 * classes this build just compiled ({@link ExampleBuild}). The example's tests check that the library brings no
 * CLI dependency (no slf4j binding, picocli, JLine or YAML reader) and keeps the test's stdout clean; here we make
 * sure they ran.
 */
@Tag("slow") // a Maven build in a child process: ~20-40 s
class LibraryExampleTest {

    @TempDir
    Path tmp;

    @Test
    void theLibraryExampleBuildsAndItsTestsPass() throws Exception {
        ExampleBuild build = ExampleBuild.run(Path.of("examples/library-test"), tmp, "test");
        assertEquals(0, build.exit(), () -> "the example's build failed:\n" + build.tail());

        Path report = build.project().resolve(
                "target/surefire-reports/TEST-com.example.softplus.SoftplusGradientTest.xml");
        assertTrue(Files.isRegularFile(report), () -> "no test report; the build said:\n" + build.tail());
        Element suite = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(report.toFile())
                .getDocumentElement();
        assertEquals("5", suite.getAttribute("tests"), build::tail);
        assertEquals("0", suite.getAttribute("failures"), build::tail);
        assertEquals("0", suite.getAttribute("errors"), build::tail);
        assertEquals("0", suite.getAttribute("skipped"), build::tail);
    }
}
