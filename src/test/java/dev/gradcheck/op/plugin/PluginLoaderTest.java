package dev.gradcheck.op.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.op.catalog.OpCatalog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Plugins compiled and packed at test time, loaded from jars and directories. */
class PluginLoaderTest {

    @TempDir
    static Path dir;

    static Path classes;
    static Path jar;

    @BeforeAll
    static void build() throws IOException {
        classes = PluginJars.classes(dir.resolve("ops"), PluginJars.TEST_OPERATORS, PluginJars.TEST_PROVIDERS);
        jar = PluginJars.jar(classes, dir.resolve("ops.jar"));
    }

    @Test
    void loadsEveryProviderOfAJarAndRemembersTheJar() throws PluginException {
        PluginSet set = PluginLoader.load(List.of(jar));
        assertEquals(List.of("test_missing_output", "test_square", "test_throws_backward", "test_throws_forward",
                "test_wrong_gradient_shape"), set.all().stream().map(PluginOperator::name).toList());
        assertEquals(jar.toString(), set.find("test_square").orElseThrow().source());
        assertEquals(List.of(jar), set.paths(), "kept so a worker process can load the same plugins");
    }

    @Test
    void loadsFromADirectoryOfClasses() throws PluginException {
        PluginSet set = PluginLoader.load(List.of(classes));
        assertEquals(classes.toString(), set.find("test_square").orElseThrow().source());
        assertTrue(set.find("tanh").isEmpty(), "only plugin ops, not ND4J's");
    }

    @Test
    void thePathGivenTwiceLoadsOnce() throws PluginException {
        assertEquals(5, PluginLoader.load(List.of(jar, jar)).all().size());
    }

    @Test
    void noPathsLoadNothing() throws PluginException {
        assertSame(PluginSet.EMPTY, PluginLoader.load(List.of()));
    }

    @Test
    void twoPluginOpsOfOneNameAreAnErrorNamingBothSources() throws IOException {
        Path other = PluginJars.jar(PluginJars.classes(dir.resolve("copy"),
                Map.of("testplugins/Square.java", PluginJars.TEST_OPERATORS.get("testplugins/Square.java")),
                List.of("testplugins.Square")), dir.resolve("copy.jar"));
        PluginException e = assertThrows(PluginException.class, () -> PluginLoader.load(List.of(jar, other)));
        assertEquals(1, e.problems().size(), e.problems().toString());
        String problem = e.problems().get(0);
        assertTrue(problem.contains("'test_square'") && problem.contains(jar.toString())
                && problem.contains(other.toString()), problem);
    }

    @Test
    void aPluginOpNamedLikeAnNd4jOpClashes() throws IOException, PluginException {
        Path tanhJar = PluginJars.jar(PluginJars.classes(dir.resolve("tanh"), Map.of("testplugins/Tanh.java", """
                package testplugins;
                public class Tanh extends Square {
                    public String name() { return "tanh"; }
                }
                """, "testplugins/Square.java", PluginJars.TEST_OPERATORS.get("testplugins/Square.java")),
                List.of("testplugins.Tanh")), dir.resolve("tanh.jar"));
        PluginSet set = PluginLoader.load(List.of(tanhJar));
        PluginException e = assertThrows(PluginException.class, () -> set.rejectClashes(OpCatalog.nd4j()));
        String problem = e.problems().get(0);
        assertTrue(problem.contains("'tanh' is both an ND4J op and a plugin op")
                && problem.contains(tanhJar.toString()), problem);
    }

    @Test
    void aMissingPathOrAFileThatIsNoJarIsAnError() {
        PluginException e = assertThrows(PluginException.class,
                () -> PluginLoader.load(List.of(dir.resolve("nope.jar"), classes.resolve("META-INF/services/"
                        + "dev.gradcheck.spi.Operator"))));
        assertEquals(2, e.problems().size(), e.problems().toString());
        assertTrue(e.problems().get(0).endsWith("nope.jar: no such file or directory"), e.problems().get(0));
        assertTrue(e.problems().get(1).endsWith("not a directory or a .jar file"), e.problems().get(1));
    }

    @Test
    void aProviderThatCannotBeInstantiatedIsAnErrorNotACrash() throws IOException {
        Path broken = PluginJars.classes(dir.resolve("broken"), Map.of("testplugins/Broken.java", """
                package testplugins;
                public class Broken extends Square {
                    public Broken() { throw new IllegalStateException("constructor exploded"); }
                }
                """, "testplugins/Square.java", PluginJars.TEST_OPERATORS.get("testplugins/Square.java")),
                List.of("testplugins.Broken"));
        PluginException e = assertThrows(PluginException.class, () -> PluginLoader.load(List.of(broken)));
        assertTrue(e.getMessage().contains("testplugins.Broken") && e.getMessage().contains("constructor exploded"),
                e.getMessage());
    }

    /** A Square whose one metadata method is replaced by {@code body}, compiled and loaded from its own folder. */
    private static PluginException loadBroken(String folder, String method, String body) throws IOException {
        Path broken = PluginJars.classes(dir.resolve(folder), Map.of("testplugins/BadMeta.java", """
                package testplugins;
                import java.util.List;
                public class BadMeta extends Square {
                    public %s { %s }
                }
                """.formatted(method, body), "testplugins/Square.java",
                PluginJars.TEST_OPERATORS.get("testplugins/Square.java")), List.of("testplugins.BadMeta"));
        return assertThrows(PluginException.class, () -> PluginLoader.load(List.of(broken)));
    }

    @Test
    void metadataThatThrowsOrIsInvalidIsALoadProblemNamingTheOpTheMethodAndTheSource() throws IOException {
        PluginException threw = loadBroken("meta-throws", "List<String> inputNames()",
                "throw new IllegalStateException(\"inputs exploded\");");
        assertEquals(1, threw.problems().size(), threw.problems().toString());
        String problem = threw.problems().get(0);
        assertTrue(problem.startsWith("plugin op 'test_square' (from " + dir.resolve("meta-throws/classes") + "): "
                + "inputNames() threw java.lang.IllegalStateException: inputs exploded"), problem);

        String nullName = loadBroken("meta-null-name", "String name()", "return null;").problems().get(0);
        assertTrue(nullName.startsWith("plugin op testplugins.BadMeta (from ") && nullName.endsWith(
                "name() returned null"), nullName);
        String nullList = loadBroken("meta-null", "List<String> outputNames()", "return null;").problems().get(0);
        assertTrue(nullList.endsWith("outputNames() returned null"), nullList);
        String twice = loadBroken("meta-twice", "List<String> attributeNames()", "return List.of(\"a\", \"a\");")
                .problems().get(0);
        assertTrue(twice.contains("attributeNames() returned 'a' twice"), twice);
        String empty = loadBroken("meta-empty", "List<String> inputNames()", "return List.of(\"\");")
                .problems().get(0);
        assertTrue(empty.contains("inputNames() returned a null or empty name"), empty);
        String jvp = loadBroken("meta-jvp", "boolean hasJvp()", "throw new UnsupportedOperationException();")
                .problems().get(0);
        assertTrue(jvp.contains("plugin op 'test_square'") && jvp.contains("hasJvp() threw"), jvp);
    }

    @Test
    void aPathWithNoOperatorProviderAndNoClassesWhereALoaderFindsThemIsALoadProblem() throws IOException {
        Path noServices = dir.resolve("bare/classes");
        Files.createDirectories(noServices); // a jar of a text file: no classes, no services file
        Files.writeString(noServices.resolve("README.txt"), "not a plugin");
        Path bareJar = PluginJars.jar(noServices, dir.resolve("bare.jar"));
        PluginException e = assertThrows(PluginException.class,
                () -> PluginLoader.load(List.of(dir.resolve("ops"), bareJar)));
        String missing = ": no dev.gradcheck.spi.Operator provider (is META-INF/services/dev.gradcheck.spi.Operator"
                + " missing?)";
        assertEquals(List.of("plugin path " + dir.resolve("ops") + missing + "; its classes are a folder down"
                        + " (classes/testplugins/", "plugin path " + bareJar + missing
                        + " and no classes (a DL4J layer's) either"),
                e.problems().stream().map(p -> p.replaceAll("testplugins/\\w+\\.class.*", "testplugins/")).toList(),
                "the classes folder's parent, and a jar without its services file or any class");
    }

    @Test
    void aJarOfClassesAndNoOperatorLoadsForTheDl4jLayersItHolds() throws IOException, PluginException,
            ClassNotFoundException {
        Path layers = PluginJars.customLayerJar(dir);
        PluginSet set = PluginLoader.load(List.of(layers));
        assertTrue(set.all().isEmpty(), "no operator");
        assertEquals(List.of(layers), set.paths(), "passed on to the workers");
        assertEquals("com.example.layers.SwishDense", set.classLoader().loadClass("com.example.layers.SwishDense")
                .getName(), "the class a spec's layer type names is found in the plugin paths");
    }

    @Test
    void aClassFileIsKnownByTheNameItDeclares() throws IOException {
        try (var in = Files.newInputStream(classes.resolve("testplugins/Square.class"))) {
            assertEquals("testplugins/Square", ClassFiles.declaredName(in).orElseThrow());
        }
        try (var in = new java.io.ByteArrayInputStream("not a class".getBytes())) {
            assertTrue(ClassFiles.declaredName(in).isEmpty());
        }
    }
}
