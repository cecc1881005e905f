package dev.gradcheck.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectDirectory;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;

/**
 * A test class path gradcheck cannot run on (the YAML reader excluded, another Jackson winning a conflict): the
 * engine's run is one failing test naming the missing class, not a discovery stack trace and an empty, green suite.
 * The class path is stood for by a discovery that throws what the JVM throws then.
 */
class EngineClassPathTest {

    @TempDir
    Path dir;

    @Test
    void aMissingClassIsAFailingTestNamingIt() {
        GradcheckTestEngine engine = new GradcheckTestEngine((request, id) -> {
            throw new NoClassDefFoundError("org/yaml/snakeyaml/error/YAMLException");
        });
        EngineExecutionResults results = EngineTestKit.execute(engine,
                org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder.request()
                        .selectors(selectDirectory(dir.toFile())).build());
        results.testEvents().assertStatistics(s -> s.started(1).failed(1));
        Throwable failure = results.testEvents().failed().list().get(0).getPayload(TestExecutionResult.class)
                .orElseThrow().getThrowable().orElseThrow();
        assertTrue(failure.getMessage().contains("cannot run on this test class path"), failure.getMessage());
        assertTrue(failure.getMessage().contains("org/yaml/snakeyaml/error/YAMLException"), failure.getMessage());
        assertTrue(failure.getMessage().contains("mvn dependency:tree"), failure.getMessage());
        results.containerEvents().assertStatistics(s -> s.failed(0));
    }

    @Test
    void theUsualClassPathDiscoversNormally() {
        EngineExecutionResults results = EngineTestKit.execute(new GradcheckTestEngine(),
                org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder.request()
                        .selectors(selectDirectory(dir.toFile())).build());
        assertEquals(0, results.testEvents().count()); // an empty directory: no spec, no problem
    }
}
