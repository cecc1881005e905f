package dev.gradcheck.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.ExampleBuild;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * examples/junit-engine, a user's project running its spec files in {@code mvn test} through the engine, built
 * against the classes this build just compiled ({@link ExampleBuild}): Surefire's XML holds one test case per spec,
 * the correct one passed, the wrong one failed with its place and worst element, the known bug skipped with its
 * reason.
 */
@Tag("slow") // a Maven build in a child process, and a worker JVM in it
class JUnitEngineExampleTest {

    @TempDir
    Path tmp;

    @Test
    void theExampleRunsEachSpecAsATestCase() throws Exception {
        // the example fails its build on purpose (one wrong gradient): the report is what is asserted on
        ExampleBuild build = ExampleBuild.run(Path.of("examples/junit-engine"), tmp,
                "-Dmaven.test.failure.ignore=true", "test");
        assertEquals(0, build.exit(), () -> "the example's build failed:\n" + build.tail());

        Path reports = build.project().resolve("target/surefire-reports");
        List<Path> xml;
        try (Stream<Path> files = Files.list(reports)) {
            xml = files.filter(f -> f.getFileName().toString().matches("TEST-.*\\.xml")).toList();
        }
        assertEquals(1, xml.size(), () -> xml + "\n" + build.tail());
        Element suite = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(xml.get(0).toFile())
                .getDocumentElement();
        assertEquals("3", suite.getAttribute("tests"), build::tail);
        assertEquals("1", suite.getAttribute("failures"), build::tail);
        assertEquals("0", suite.getAttribute("errors"), build::tail);
        assertEquals("1", suite.getAttribute("skipped"), build::tail);

        Map<String, Element> cases = new HashMap<>();
        NodeList list = suite.getElementsByTagName("testcase");
        for (int i = 0; i < list.getLength(); i++) {
            Element c = (Element) list.item(i);
            cases.put(c.getAttribute("name"), c);
        }
        assertEquals(0, cases.get("tanh").getElementsByTagName("failure").getLength(), build::tail);
        assertEquals(0, cases.get("tanh").getElementsByTagName("skipped").getLength(), build::tail);
        Element failure = (Element) cases.get("gather-repeated-index").getElementsByTagName("failure").item(0);
        String message = failure.getAttribute("message") + "\n" + failure.getTextContent();
        assertTrue(message.contains("src/test/resources/specs/gather.yaml:4:1: gather-repeated-index [cpu] failed"),
                message);
        assertTrue(message.contains("worst at out[0, 0] / x[0, 0]"), message);
        assertTrue(message.contains("6 / 36 entries mismatch"), message);
        Element skipped = (Element) cases.get("gather-repeated-index-known-bug").getElementsByTagName("skipped")
                .item(0);
        assertTrue(skipped.getAttribute("message").contains("ND4J's gather backward ignores repeated indices"),
                skipped.getAttribute("message"));
    }
}
