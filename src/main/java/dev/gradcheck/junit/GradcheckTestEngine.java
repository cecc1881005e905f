package dev.gradcheck.junit;

import java.util.Optional;
import java.util.function.BiFunction;
import org.junit.platform.engine.EngineDiscoveryRequest;
import org.junit.platform.engine.ExecutionRequest;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.TestEngine;
import org.junit.platform.engine.UniqueId;

/**
 * The JUnit Platform engine {@value #ID}: the spec files a request selects (classpath resources, directories,
 * files) become tests, one container per file and one test per spec, run as {@code gradcheck check} runs them.
 * Found by the JUnit Platform through {@code META-INF/services/org.junit.platform.engine.TestEngine}.
 *
 * <p>A user's class path can lack a class gradcheck needs (an exclusion, another version of Jackson winning a
 * conflict). The launcher would print such an error as a discovery stack trace and run nothing, which a build can
 * take for a green suite: here it becomes one failing test that names the class and how to look for the cause.
 */
public final class GradcheckTestEngine implements TestEngine {

    /** The engine's id, for {@code @IncludeEngines("gradcheck")}. */
    public static final String ID = "gradcheck";

    private final BiFunction<EngineDiscoveryRequest, UniqueId, TestDescriptor> discovery;

    /** The engine the JUnit Platform's ServiceLoader makes. */
    public GradcheckTestEngine() {
        this(SpecDiscovery::discover);
    }

    /** An engine discovering through {@code discovery} (a test's, to stand for a class path gradcheck cannot use). */
    GradcheckTestEngine(BiFunction<EngineDiscoveryRequest, UniqueId, TestDescriptor> discovery) {
        this.discovery = discovery;
    }

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
        try {
            return discovery.apply(request, uniqueId);
        } catch (LinkageError e) {
            SpecEngineDescriptor engine = new SpecEngineDescriptor(uniqueId, null);
            engine.addChild(new ProblemDescriptor(uniqueId.append(ProblemDescriptor.SEGMENT, "class-path"),
                    unusableClassPath(e)));
            return engine;
        }
    }

    @Override
    public void execute(ExecutionRequest request) {
        new SpecExecution(request).run();
    }

    /** What a test shows when a class gradcheck needs is missing or of another version. */
    static String unusableClassPath(LinkageError e) {
        return "the engine cannot run on this test class path: " + e
                + "\n  gradcheck's pom brings what it needs (jackson-databind, jackson-dataformat-yaml, ND4J); an"
                + " exclusion or another version winning a conflict takes it away: `mvn dependency:tree` shows which"
                + " (docs/library-api.md, \"Adding it to a project\")";
    }
}
