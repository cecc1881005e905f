package dev.gradcheck;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * What docs/library-api.md tells a user to put in their project is what examples/junit-engine holds, which the
 * slow tests build with Maven 3.8.7 (JUnitEngineExampleTest) and with Surefire 2.12.4 (OldSurefireTest): a pom or a
 * suite class copied from the page is one that was built.
 */
class DocsMatchExamplesTest {

    private static final Path DOC = Path.of("docs/library-api.md");
    private static final Path EXAMPLE = Path.of("examples/junit-engine");

    @Test
    void theDocsPomIsTheExamples() throws IOException {
        String xml = block(Files.readString(DOC), "xml", "<surefire.version>");
        assertTrue(normalized(Files.readString(EXAMPLE.resolve("pom.xml"))).contains(normalized(xml)),
                "docs/library-api.md's pom is not examples/junit-engine/pom.xml's:\n" + xml);
    }

    @Test
    void theDocsSuiteClassIsTheExamples() throws IOException {
        String java = block(Files.readString(DOC), "java", "testThatTheJUnitPlatformRunsThisSuite");
        String example = normalized(Files.readString(
                EXAMPLE.resolve("src/test/java/com/example/gradients/GradientSpecsTest.java")));
        for (String line : List.of("@Suite", "@IncludeEngines(\"gradcheck\")", "@SelectClasspathResource(\"specs\")",
                "public void testThatTheJUnitPlatformRunsThisSuite() {",
                "throw new AssertionError(\"this Surefire does not run the JUnit Platform, so no spec was checked:")) {
            assertTrue(normalized(java).contains(line), line);
            assertTrue(example.contains(line), line);
        }
    }

    /** The first fenced block of that language holding {@code marker}. */
    static String block(String markdown, String language, String marker) {
        Matcher m = Pattern.compile("```" + language + "\n(.*?)```", Pattern.DOTALL).matcher(markdown);
        while (m.find()) {
            if (m.group(1).contains(marker)) {
                return m.group(1);
            }
        }
        throw new AssertionError("no ```" + language + " block with " + marker);
    }

    /** Each line trimmed, blank lines dropped: indentation differs between a page and a file. */
    static String normalized(String text) {
        return String.join("\n", text.lines().map(String::strip).filter(l -> !l.isEmpty()).toList());
    }
}
