package dev.gradcheck.junit;

import java.util.Optional;
import org.junit.platform.engine.EngineDiscoveryRequest;
import org.junit.platform.engine.ExecutionRequest;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.TestEngine;
import org.junit.platform.engine.UniqueId;

/**
 * The JUnit Platform engine {@value #ID}: the spec files a request selects (classpath resources, directories,
 * files) become tests, one container per file and one test per spec, run as {@code gradcheck check} runs them.
 * Found by the JUnit Platform through {@code META-INF/services/org.junit.platform.engine.TestEngine}.
 */
public final class GradcheckTestEngine implements TestEngine {

    /** The engine's id, for {@code @IncludeEngines("gradcheck")}. */
    public static final String ID = "gradcheck";

    @Override
    public String getId() {
        return ID;
    }

    @Override
    public Optional<String> getGroupId() {
        return Optional.of("dev.gradcheck");
    }

    @Override
    public Optional<String> getArtifactId() {
        return Optional.of("gradcheck");
    }

    @Override
    public TestDescriptor discover(EngineDiscoveryRequest request, UniqueId uniqueId) {
        return SpecDiscovery.discover(request, uniqueId);
    }

    @Override
    public void execute(ExecutionRequest request) {
        new SpecExecution(request).run();
    }
}
