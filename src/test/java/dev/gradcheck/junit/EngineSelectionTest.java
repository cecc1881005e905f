package dev.gradcheck.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectDirectory;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.TestTag;
import org.junit.platform.launcher.TagFilter;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;

/**
 * Picking specs from the build: a spec's {@code tags:} are its test's JUnit tags (what Surefire's -Dgroups and
 * -DexcludedGroups, Gradle's includeTags and an IDE filter by), the engine's own selection keys narrow as check's
 * options do, and an unknown {@code gradcheck.*} key fails the run naming it. The specs are invalid on purpose (a
 * negative shape, found as the file is read), so that each test that runs fails at once without a worker JVM:
 * which tests ran is what is asserted.
 */
class EngineSelectionTest {

    @TempDir
    Path dir;

    @BeforeEach
    void specs() throws Exception {
        Files.writeString(dir.resolve("cumulative.yaml"), """
                name: cumsum-axis0
                op: cumsum
                tags: [slow, reductions]
                inputs:
                  x: {shape: [-2]}
                ---
                name: cumprod-axis0
                op: cumprod
                tags: [reductions]
                inputs:
                  x: {shape: [-2]}
                ---
                name: cumprod-axis1
                op: cumprod
                tags: [reductions, cuda]
                inputs:
                  x: {shape: [-2]}
                """);
    }

    @Test
    void specTagsAreJUnitTags() {
        EngineExecutionResults results = EngineTestKit.engine(GradcheckTestEngine.ID)
                .selectors(selectDirectory(dir.toFile())).execute();
        Event first = results.testEvents().started().list().get(0);
        assertEquals(Set.of(TestTag.create("slow"), TestTag.create("reductions")),
                first.getTestDescriptor().getTags());
    }

    @Test
    void groupsAndExcludedGroupsFilterByTags() {
        // Surefire's -Dgroups=slow / -DexcludedGroups=cuda are these launcher filters
        assertEquals(List.of("cumsum-axis0"), ran(EngineTestKit.engine(GradcheckTestEngine.ID)
                .filters(TagFilter.includeTags("slow")).selectors(selectDirectory(dir.toFile())).execute()));
        assertEquals(List.of("cumsum-axis0", "cumprod-axis0"), ran(EngineTestKit.engine(GradcheckTestEngine.ID)
                .filters(TagFilter.excludeTags("cuda")).selectors(selectDirectory(dir.toFile())).execute()));
    }

    @Test
    void onlySkipAndTagKeysSelectAsCheckDoes() {
        assertEquals(List.of("cumprod-axis0", "cumprod-axis1"), ran(EngineTestKit.engine(GradcheckTestEngine.ID)
                .configurationParameter(EngineSettings.ONLY, "cumprod*")
                .selectors(selectDirectory(dir.toFile())).execute()));
        assertEquals(List.of("cumprod-axis0"), ran(EngineTestKit.engine(GradcheckTestEngine.ID)
                .configurationParameter(EngineSettings.ONLY, "cumprod*")
                .configurationParameter(EngineSettings.SKIP, "*axis1")
                .selectors(selectDirectory(dir.toFile())).execute()));
        assertEquals(List.of("cumsum-axis0", "cumprod-axis0"), ran(EngineTestKit.engine(GradcheckTestEngine.ID)
                .configurationParameter(EngineSettings.TAG, "reductions and not cuda")
                .selectors(selectDirectory(dir.toFile())).execute()));
    }

    @Test
    void theKeywordKeySelectsAsCheckKDoes() {
        assertEquals(List.of("cumprod-axis1"), ran(EngineTestKit.engine(GradcheckTestEngine.ID)
                .configurationParameter(EngineSettings.KEYWORD, "cumprod and not axis0")
                .selectors(selectDirectory(dir.toFile())).execute()));
        EngineExecutionResults typo = EngineTestKit.engine(GradcheckTestEngine.ID)
                .configurationParameter(EngineSettings.KEYWORD, "cumprd")
                .selectors(selectDirectory(dir.toFile())).execute();
        String message = failure(typo);
        assertTrue(message.contains("gradcheck.k='cumprd' left none of the 3 specs found\n  no spec's name, op or"
                + " file holds 'cumprd' (did you mean 'cumprod'?)"), message);
    }

    @Test
    void aSelectionThatLeavesNothingFailsSayingSo() {
        EngineExecutionResults results = EngineTestKit.engine(GradcheckTestEngine.ID)
                .configurationParameter(EngineSettings.ONLY, "cumprodd")
                .selectors(selectDirectory(dir.toFile())).execute();
        results.testEvents().assertStatistics(s -> s.started(1).failed(1));
        String message = failure(results);
        assertTrue(message.startsWith("gradcheck: gradcheck.only=[cumprodd] left none of the 3 specs found"),
                message);
    }

    @Test
    void anUnknownKeyIsOneFailingTestAndNoSpecRuns() {
        EngineExecutionResults results = EngineTestKit.engine(GradcheckTestEngine.ID)
                .configurationParameter("gradcheck.onli", "cumprod*")
                .selectors(selectDirectory(dir.toFile())).execute();
        results.testEvents().assertStatistics(s -> s.started(1).failed(1));
        results.containerEvents().assertStatistics(s -> s.failed(0));
        String message = failure(results);
        assertTrue(message.startsWith("gradcheck: configuration parameter gradcheck.onli: unknown key; did you mean"
                + " gradcheck.only?"), message);
    }

    private static List<String> ran(EngineExecutionResults results) {
        return results.testEvents().started().list().stream().map(e -> e.getTestDescriptor().getDisplayName())
                .toList();
    }

    private static String failure(EngineExecutionResults results) {
        return results.testEvents().failed().list().get(0).getPayload(TestExecutionResult.class).orElseThrow()
                .getThrowable().orElseThrow().getMessage();
    }
}
