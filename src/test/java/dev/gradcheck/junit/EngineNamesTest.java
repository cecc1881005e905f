package dev.gradcheck.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectFile;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectUniqueId;

import dev.gradcheck.report.SafeText;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;

/**
 * Any name a spec may hold survives the engine: discovery never throws, every spec is a test, no two specs share an
 * id (a second spec of one name, and one named as that second's id once was, {@code a@11}, stay three tests), each id
 * runs its own spec again, and nothing that reaches Surefire's XML (names, messages) holds a character XML 1.0
 * cannot. The specs are invalid on purpose (a negative shape) so that each test fails at once, without a worker.
 */
class EngineNamesTest {

    @TempDir
    Path dir;

    @Test
    void aControlCharacterNameIsATest() throws Exception {
        assertEachSpecIsItsOwnTest(List.of("\u0001", "\uFFFE", "tab\there", "\u001c"));
    }

    @Test
    void aRepeatedNameAndItsOldIdAreThreeTests() throws Exception {
        // the second 'a' starts at line 5: its id was once 'a@5', which a third spec could also be named
        assertEachSpecIsItsOwnTest(List.of("a", "a", "a@5"));
    }

    @Provide
    Arbitrary<String> names() {
        Arbitrary<String> unicode = Arbitraries.strings().all().ofMinLength(1).ofMaxLength(12);
        Arbitrary<String> awkward = Arbitraries.strings().withCharRange('\u0000', '\u00A0')
                .withChars('\uFFFE', '\uFFFF', '\u2028', '\u202E', '\uFEFF', '@', '/', ':', '[', ']', '%', '\\')
                .ofMinLength(1).ofMaxLength(12);
        return Arbitraries.oneOf(unicode, awkward);
    }

    @Property(tries = 60)
    void anyNamesAreTestsOfTheirOwn(@ForAll("names") String first, @ForAll("names") String second)
            throws Exception {
        dir = Files.createTempDirectory("engine-names");
        assertEachSpecIsItsOwnTest(List.of(first, second, first, second + "@9"));
    }

    private void assertEachSpecIsItsOwnTest(List<String> names) throws Exception {
        Path file = dir.resolve("names.yaml");
        StringBuilder yaml = new StringBuilder();
        for (String name : names) {
            yaml.append(yaml.isEmpty() ? "" : "---\n").append("name: ").append(quoted(name))
                    .append("\nop: tanh\ninputs:\n  x: {shape: [-2]}\n");
        }
        Files.writeString(file, yaml);
        EngineExecutionResults results = EngineTestKit.engine(GradcheckTestEngine.ID)
                .selectors(selectFile(file.toFile())).execute();
        List<Event> tests = results.testEvents().finished().list();
        assertEquals(names.size(), tests.size(), () -> results.allEvents().list().toString());
        Set<UniqueId> ids = new HashSet<>();
        for (Event test : tests) {
            UniqueId id = test.getTestDescriptor().getUniqueId();
            assertEquals(id, UniqueId.parse(id.toString()));
            ids.add(id);
            assertXmlSafe(test.getTestDescriptor().getDisplayName());
            assertXmlSafe(test.getPayload(TestExecutionResult.class).orElseThrow().getThrowable().orElseThrow()
                    .getMessage());
        }
        assertEquals(names.size(), ids.size(), ids::toString);
        for (UniqueId id : ids) { // what an IDE sends to run one test again
            List<Event> again = EngineTestKit.engine(GradcheckTestEngine.ID).selectors(selectUniqueId(id))
                    .execute().testEvents().finished().list();
            assertEquals(1, again.size(), id::toString);
            assertEquals(id, again.get(0).getTestDescriptor().getUniqueId());
        }
    }

    private static void assertXmlSafe(String text) {
        assertEquals(text, SafeText.forXml(text), "holds a character XML 1.0 cannot: " + text);
        assertFalse(text.isBlank());
    }

    /** A YAML double-quoted scalar spelling every character as an escape, so any string can be written. */
    private static String quoted(String name) {
        StringBuilder q = new StringBuilder("\"");
        name.codePoints().forEach(c -> q.append(c > 0xFFFF ? String.format("\\U%08X", c)
                : String.format("\\u%04X", c)));
        return q.append('"').toString();
    }
}
