package dev.gradcheck.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.result.Engine;
import dev.gradcheck.result.Mode;
import dev.gradcheck.run.SpecSelection;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.ConfigurationParameters;

/** The engine's settings as junit-platform.properties gives them: each key read, a bad value refused by name. */
class EngineSettingsTest {

    @Test
    void everyKeyIsRead() throws Exception {
        EngineSettings s = EngineSettings.from(parameters(Map.of(EngineSettings.MODE, "fast",
                EngineSettings.THREADS, "2", EngineSettings.JOBS, "3", EngineSettings.TIMEOUT, "12.5",
                EngineSettings.BACKEND, "ALL", EngineSettings.PLUGINS, "a.jar, build/classes")));
        assertEquals(new EngineSettings(Mode.FAST, 2, 3, List.of(Path.of("a.jar"), Path.of("build/classes")), 12.5,
                List.of(Engine.values()), SpecSelection.ALL), s);
        assertEquals(Mode.FAST, s.overrides().mode());
        assertEquals(2, s.overrides().threads());
    }

    @Test
    void nothingSetLeavesEachSpecItsOwn() throws Exception {
        EngineSettings s = EngineSettings.from(parameters(Map.of()));
        assertNull(s.mode());
        assertNull(s.engines());
        assertNull(s.timeout());
        assertEquals(1, s.jobs());
        assertEquals(List.of(), s.plugins());
    }

    @Test
    void aBadValueIsRefusedWithItsKeyAndWhy() {
        assertEquals("gradcheck: configuration parameter gradcheck.threads=0: must be a whole number from 1 to 64",
                refused(EngineSettings.THREADS, "0"));
        assertEquals("gradcheck: configuration parameter gradcheck.timeout=-1: must be a number of seconds from 0.001"
                + " to 1000000", refused(EngineSettings.TIMEOUT, "-1"));
        assertEquals("gradcheck: configuration parameter gradcheck.timeout=1e-320: must be a number of seconds from"
                + " 0.001 to 1000000", refused(EngineSettings.TIMEOUT, "1e-320"));
        assertEquals("gradcheck: configuration parameter gradcheck.jobs=2147483647: must be a whole number from 1 to"
                + " 256", refused(EngineSettings.JOBS, "2147483647"));
        assertEquals("gradcheck: configuration parameter gradcheck.backend=tpu: unknown backend; one of cpu, cuda,"
                + " all", refused(EngineSettings.BACKEND, "tpu"));
        assertEquals("gradcheck: configuration parameter gradcheck.jobs=two: must be a whole number from 1 to 256",
                refused(EngineSettings.JOBS, "two"));
    }

    @Test
    void anUnknownKeyFailsTheRunNamingItAndTheClosestKey() {
        // Cucumber and the JUnit Platform ignore a misspelt key; a selection that silently selects all is worse
        assertEquals("gradcheck: configuration parameter gradcheck.onlyy: unknown key; did you mean gradcheck.only?"
                + " the engine reads " + String.join(", ", EngineSettings.KEYS) + " (docs/library-api.md)",
                refused("gradcheck.onlyy", "tanh*"));
        String far = refused("gradcheck.filter.name", "tanh*");
        assertTrue(far.startsWith("gradcheck: configuration parameter gradcheck.filter.name: unknown key; the engine"
                + " reads gradcheck.mode,"), far);
    }

    @Test
    void keysOutsideTheEnginesOwnAreLeftAlone() throws Exception {
        // mvn -Dgradcheck.version=... reaches the test JVM as a system property; other namespaces are not ours
        EngineSettings s = EngineSettings.from(parameters(Map.of("gradcheck.version", "0.2.0",
                "junit.jupiter.execution.parallel.enabled", "true", "gradcheckx", "1",
                "gradcheck.docs", "/opt/gradcheck/docs"))); // set by the CLI when it ran in this JVM
        assertEquals(EngineSettings.NONE, s);
    }

    @Test
    void selectionKeysReadAsCheckReadsItsOptions() throws Exception {
        EngineSettings s = EngineSettings.from(parameters(Map.of(EngineSettings.ONLY, "cum*, {tanh,sin}-*",
                EngineSettings.SKIP, "*axis0", EngineSettings.TAG, "slow and not cuda")));
        assertEquals("[cum*, {tanh,sin}-*]", s.selection().only().toString());
        assertEquals("[*axis0]", s.selection().skip().toString());
        assertEquals(Set.of("slow", "cuda"), s.selection().tags().tags());
        assertEquals("gradcheck: configuration parameter gradcheck.tag=slow and: column 9: expected a tag or '('"
                + " after 'and'", refused(EngineSettings.TAG, "slow and"));
        assertTrue(refused(EngineSettings.ONLY, "a[").startsWith("gradcheck: configuration parameter"
                + " gradcheck.only=a[: 'a[' is not a valid glob"));
    }

    private static String refused(String key, String value) {
        return assertThrows(EngineSettings.Invalid.class, () -> EngineSettings.from(parameters(Map.of(key, value))))
                .getMessage();
    }

    private static ConfigurationParameters parameters(Map<String, String> values) {
        return new ConfigurationParameters() {
            @Override
            public Optional<String> get(String key) {
                return Optional.ofNullable(values.get(key));
            }

            @Override
            public Optional<Boolean> getBoolean(String key) {
                return get(key).map(Boolean::parseBoolean);
            }

            @Override
            @SuppressWarnings("deprecation")
            public int size() {
                return values.size();
            }

            @Override
            public Set<String> keySet() {
                return values.keySet();
            }
        };
    }
}
