package dev.gradcheck.op.plugin;

import dev.gradcheck.spi.Operator;
import java.io.IOException;
import java.io.OutputStream;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/**
 * Builds plugins at test time the way a user would: Java sources compiled against gradcheck's classes, a
 * {@code META-INF/services} file, and (optionally) a jar.
 */
public final class PluginJars {

    /** Test operators: a correct one, and one for each way a plugin can break its contract. */
    public static final Map<String, String> TEST_OPERATORS = Map.of(
            "testplugins/Square.java", """
                    package testplugins;
                    import dev.gradcheck.spi.Operator;
                    import java.util.List;
                    import java.util.Map;
                    import org.nd4j.linalg.api.ndarray.INDArray;
                    /** y = scale * x^2, dy/dx = 2 * scale * x. */
                    public class Square implements Operator {
                        public String name() { return "test_square"; }
                        public List<String> inputNames() { return List.of("x"); }
                        public List<String> outputNames() { return List.of("y"); }
                        public List<String> attributeNames() { return List.of("scale"); }
                        protected double scale(Map<String, Object> attrs) {
                            return ((Number) attrs.getOrDefault("scale", 1.0)).doubleValue();
                        }
                        public Map<String, INDArray> forward(Map<String, INDArray> in, Map<String, Object> attrs) {
                            INDArray x = in.get("x");
                            return Map.of("y", x.mul(x).muli(scale(attrs)));
                        }
                        public Map<String, INDArray> backward(Map<String, INDArray> in, Map<String, INDArray> out,
                                                              Map<String, INDArray> grads, Map<String, Object> attrs) {
                            return Map.of("x", in.get("x").mul(grads.get("y")).muli(2 * scale(attrs)));
                        }
                    }
                    """,
            "testplugins/ThrowsInForward.java", """
                    package testplugins;
                    import java.util.Map;
                    import org.nd4j.linalg.api.ndarray.INDArray;
                    public class ThrowsInForward extends Square {
                        public String name() { return "test_throws_forward"; }
                        public Map<String, INDArray> forward(Map<String, INDArray> in, Map<String, Object> attrs) {
                            throw new IllegalStateException("forward exploded");
                        }
                    }
                    """,
            "testplugins/ThrowsInBackward.java", """
                    package testplugins;
                    import java.util.Map;
                    import org.nd4j.linalg.api.ndarray.INDArray;
                    public class ThrowsInBackward extends Square {
                        public String name() { return "test_throws_backward"; }
                        public Map<String, INDArray> backward(Map<String, INDArray> in, Map<String, INDArray> out,
                                                              Map<String, INDArray> grads, Map<String, Object> attrs) {
                            throw new ArithmeticException("backward exploded");
                        }
                    }
                    """,
            "testplugins/WrongGradientShape.java", """
                    package testplugins;
                    import java.util.Map;
                    import org.nd4j.linalg.api.ndarray.INDArray;
                    /** The right values, flattened: a gradient of shape [6] for an input of shape [2, 3]. */
                    public class WrongGradientShape extends Square {
                        public String name() { return "test_wrong_gradient_shape"; }
                        public Map<String, INDArray> backward(Map<String, INDArray> in, Map<String, INDArray> out,
                                                              Map<String, INDArray> grads, Map<String, Object> attrs) {
                            return Map.of("x", super.backward(in, out, grads, attrs).get("x").reshape(-1));
                        }
                    }
                    """,
            "testplugins/MissingOutput.java", """
                    package testplugins;
                    import java.util.Map;
                    import org.nd4j.linalg.api.ndarray.INDArray;
                    public class MissingOutput extends Square {
                        public String name() { return "test_missing_output"; }
                        public Map<String, INDArray> forward(Map<String, INDArray> in, Map<String, Object> attrs) {
                            return Map.of("z", in.get("x").dup());
                        }
                    }
                    """);

    public static final List<String> TEST_PROVIDERS = List.of("testplugins.Square", "testplugins.ThrowsInForward",
            "testplugins.ThrowsInBackward", "testplugins.WrongGradientShape", "testplugins.MissingOutput");

    /**
     * Plugins whose bugs the arrays-are-copies contract used to hide: a forward that changes its input in place, a
     * backward that changes its input or its output gradient, a backward that reads the outputs its last forward
     * cached (and a correct twin that reads the outputs it is given), a backward that returns a gradient for an
     * integer input. Each must fail its check.
     */
    public static final Map<String, String> BLIND_SPOT_OPERATORS = Map.of(
            "testplugins/MutatesInputInForward.java", """
                    package testplugins;
                    import java.util.Map;
                    import org.nd4j.linalg.api.ndarray.INDArray;
                    public class MutatesInputInForward extends Square {
                        public String name() { return "test_mutates_input_forward"; }
                        public Map<String, INDArray> forward(Map<String, INDArray> in, Map<String, Object> attrs) {
                            Map<String, INDArray> y = super.forward(in, attrs);
                            in.get("x").muli(2); // BUG: scratch work on its input
                            return y;
                        }
                    }
                    """,
            "testplugins/MutatesInputInBackward.java", """
                    package testplugins;
                    import java.util.Map;
                    import org.nd4j.linalg.api.ndarray.INDArray;
                    public class MutatesInputInBackward extends Square {
                        public String name() { return "test_mutates_input_backward"; }
                        public Map<String, INDArray> backward(Map<String, INDArray> in, Map<String, INDArray> out,
                                                              Map<String, INDArray> grads, Map<String, Object> attrs) {
                            INDArray x = in.get("x");
                            return Map.of("x", x.muli(grads.get("y")).muli(2 * scale(attrs))); // BUG: in place on x
                        }
                    }
                    """,
            "testplugins/MutatesGradientInBackward.java", """
                    package testplugins;
                    import java.util.Map;
                    import org.nd4j.linalg.api.ndarray.INDArray;
                    public class MutatesGradientInBackward extends Square {
                        public String name() { return "test_mutates_gradient_backward"; }
                        public Map<String, INDArray> backward(Map<String, INDArray> in, Map<String, INDArray> out,
                                                              Map<String, INDArray> grads, Map<String, Object> attrs) {
                            INDArray g = grads.get("y");
                            return Map.of("x", g.muli(in.get("x")).muli(2 * scale(attrs))); // BUG: in place on dL/dy
                        }
                    }
                    """,
            "testplugins/CachingExp.java", """
                    package testplugins;
                    import dev.gradcheck.spi.Operator;
                    import java.util.List;
                    import java.util.Map;
                    import org.nd4j.linalg.api.ndarray.INDArray;
                    import org.nd4j.linalg.ops.transforms.Transforms;
                    /** y = exp(x); dy/dx = y, read from the outputs the last forward cached. */
                    public class CachingExp implements Operator {
                        private INDArray lastY;
                        public String name() { return "test_caching_exp"; }
                        public List<String> inputNames() { return List.of("x"); }
                        public List<String> outputNames() { return List.of("y"); }
                        public Map<String, INDArray> forward(Map<String, INDArray> in, Map<String, Object> attrs) {
                            lastY = Transforms.exp(in.get("x"), true);
                            return Map.of("y", lastY);
                        }
                        protected INDArray y(Map<String, INDArray> out) { return lastY; } // BUG: not out.get("y")
                        public Map<String, INDArray> backward(Map<String, INDArray> in, Map<String, INDArray> out,
                                                              Map<String, INDArray> grads, Map<String, Object> attrs) {
                            return Map.of("x", grads.get("y").mul(y(out)));
                        }
                    }
                    """,
            "testplugins/Exp.java", """
                    package testplugins;
                    import java.util.Map;
                    import org.nd4j.linalg.api.ndarray.INDArray;
                    /** The same op reading the outputs it is given: correct. */
                    public class Exp extends CachingExp {
                        public String name() { return "test_exp"; }
                        protected INDArray y(Map<String, INDArray> out) { return out.get("y"); }
                    }
                    """,
            "testplugins/IndexGradient.java", """
                    package testplugins;
                    import java.util.List;
                    import java.util.Map;
                    import org.nd4j.linalg.api.ndarray.INDArray;
                    /** y = scale * x^2, with an integer input idx it ignores, and a gradient for idx all the same. */
                    public class IndexGradient extends Square {
                        public String name() { return "test_index_gradient"; }
                        public List<String> inputNames() { return List.of("x", "idx"); }
                        public Map<String, INDArray> backward(Map<String, INDArray> in, Map<String, INDArray> out,
                                                              Map<String, INDArray> grads, Map<String, Object> attrs) {
                            return Map.of("x", super.backward(in, out, grads, attrs).get("x"),
                                    "idx", in.get("idx").add(1)); // BUG: an integer input has no gradient
                        }
                    }
                    """);

    public static final List<String> BLIND_SPOT_PROVIDERS = List.of("testplugins.MutatesInputInForward",
            "testplugins.MutatesInputInBackward", "testplugins.MutatesGradientInBackward", "testplugins.CachingExp",
            "testplugins.Exp", "testplugins.IndexGradient");

    /**
     * Plugins that break the process they run in: one recursing without end in backward, one calling System.exit
     * in forward (only ever checked in a worker JVM). They extend {@code testplugins.Square}: compile them with
     * {@link #TEST_OPERATORS}.
     */
    public static final Map<String, String> DEADLY_OPERATORS = Map.of(
            "testplugins/RecursesInBackward.java", """
                    package testplugins;
                    import java.util.Map;
                    import org.nd4j.linalg.api.ndarray.INDArray;
                    public class RecursesInBackward extends Square {
                        public String name() { return "test_recurses_backward"; }
                        private static int deeper(int n) { return deeper(n + 1) + 1; }
                        public Map<String, INDArray> backward(Map<String, INDArray> in, Map<String, INDArray> out,
                                                              Map<String, INDArray> grads, Map<String, Object> attrs) {
                            deeper(0);
                            return super.backward(in, out, grads, attrs);
                        }
                    }
                    """,
            "testplugins/ExitsInForward.java", """
                    package testplugins;
                    import java.util.Map;
                    import org.nd4j.linalg.api.ndarray.INDArray;
                    public class ExitsInForward extends Square {
                        public String name() { return "test_exits_forward"; }
                        public Map<String, INDArray> forward(Map<String, INDArray> in, Map<String, Object> attrs) {
                            System.exit(42);
                            return null;
                        }
                    }
                    """);

    public static final List<String> DEADLY_PROVIDERS = List.of("testplugins.RecursesInBackward",
            "testplugins.ExitsInForward");

    /**
     * Plugins that misbehave while they are loaded, before any check (issue 27, defect 9), each alone in a jar of
     * its own by {@link #loadingJar}: a constructor that calls {@code System.exit(0)}; one that blocks and ignores
     * interrupts (as a hung plugin does); one that blocks until interrupted (for a test in the test JVM itself, which
     * must not keep a thread forever); one that exits only in a worker JVM (which the front end's load survives).
     */
    public static final Map<String, String> LOADING_OPERATORS = Map.of(
            "testplugins.ExitsOnLoad", """
                    package testplugins;
                    public class ExitsOnLoad extends Square {
                        public ExitsOnLoad() { System.exit(0); }
                        public String name() { return "test_exits_on_load"; }
                    }
                    """,
            "testplugins.HangsOnLoad", """
                    package testplugins;
                    public class HangsOnLoad extends Square {
                        public HangsOnLoad() {
                            while (true) {
                                try { Thread.sleep(600_000); } catch (InterruptedException ignored) { }
                            }
                        }
                        public String name() { return "test_hangs_on_load"; }
                    }
                    """,
            "testplugins.SleepsOnLoad", """
                    package testplugins;
                    public class SleepsOnLoad extends Square {
                        public SleepsOnLoad() {
                            try { Thread.sleep(600_000); } catch (InterruptedException e) { throw new IllegalStateException(e); }
                        }
                        public String name() { return "test_sleeps_on_load"; }
                    }
                    """,
            "testplugins.ExitsInWorker", """
                    package testplugins;
                    public class ExitsInWorker extends Square {
                        public ExitsInWorker() {
                            if (System.getProperty("gradcheck.backend") != null) { System.exit(0); }
                        }
                        public String name() { return "test_exits_in_worker"; }
                    }
                    """);

    /** The {@link #LOADING_OPERATORS} plugin {@code provider} (with Square, its base) alone in {@code dir/NAME.jar}. */
    public static Path loadingJar(Path dir, String provider) throws IOException {
        String simple = provider.substring(provider.lastIndexOf('.') + 1);
        Map<String, String> sources = Map.of("testplugins/" + simple + ".java", LOADING_OPERATORS.get(provider),
                "testplugins/Square.java", TEST_OPERATORS.get("testplugins/Square.java"));
        return jar(classes(dir.resolve(simple), sources, List.of(provider)), dir.resolve(simple + ".jar"));
    }

    /** The test operators, the deadly ones and the blind spots together, compiled to {@code dir/classes}. */
    public static Path allClasses(Path dir) throws IOException {
        Map<String, String> sources = new java.util.HashMap<>(TEST_OPERATORS);
        sources.putAll(DEADLY_OPERATORS);
        sources.putAll(BLIND_SPOT_OPERATORS);
        List<String> providers = new ArrayList<>(TEST_PROVIDERS);
        providers.addAll(DEADLY_PROVIDERS);
        providers.addAll(BLIND_SPOT_PROVIDERS);
        return classes(dir, sources, providers);
    }

    private PluginJars() {}

    /** Writes the sources under {@code dir/src}, compiles them to {@code dir/classes} and lists the providers. */
    public static Path classes(Path dir, Map<String, String> sources, List<String> providers) throws IOException {
        List<Path> files = new ArrayList<>();
        for (Map.Entry<String, String> e : sources.entrySet()) {
            Path file = dir.resolve("src").resolve(e.getKey());
            Files.createDirectories(file.getParent());
            Files.writeString(file, e.getValue());
            files.add(file);
        }
        Path classes = compile(files, dir.resolve("classes"));
        Path services = classes.resolve("META-INF/services/dev.gradcheck.spi.Operator");
        Files.createDirectories(services.getParent());
        Files.writeString(services, String.join("\n", providers) + "\n");
        return classes;
    }

    /** Compiles Java source files against the test class path (gradcheck, ND4J) into {@code out}. */
    public static Path compile(List<Path> sourceFiles, Path out) throws IOException {
        Files.createDirectories(out);
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        StringWriter diagnostics = new StringWriter();
        try (StandardJavaFileManager files = compiler.getStandardFileManager(null, null, null)) {
            boolean ok = compiler.getTask(diagnostics, files, null,
                    List.of("--release", "17", "-d", out.toString(), "-cp", System.getProperty("java.class.path")),
                    null, files.getJavaFileObjectsFromPaths(sourceFiles)).call();
            if (!ok) {
                throw new IllegalStateException("test plugin does not compile:\n" + diagnostics);
            }
        }
        return out;
    }

    /** The example of a user's own DL4J layers, as its build script builds it. */
    public static final Path CUSTOM_LAYER_EXAMPLE = Path.of("examples/dl4j-custom-layer");

    /**
     * examples/dl4j-custom-layer compiled and packed into {@code dir/dl4j-custom-layer.jar}, as its build script
     * does: a user's DL4J layers (SwishDense, SwishDenseBuggy), no operator and no services file.
     */
    public static Path customLayerJar(Path dir) throws IOException {
        List<Path> sources;
        try (Stream<Path> walk = Files.walk(CUSTOM_LAYER_EXAMPLE.resolve("src/main/java"))) {
            sources = walk.filter(p -> p.toString().endsWith(".java")).toList();
        }
        return jar(compile(sources, dir.resolve("custom-layer/classes")), dir.resolve("dl4j-custom-layer.jar"));
    }

    /** Packs a directory (classes and META-INF) into a jar. */
    public static Path jar(Path classes, Path jarFile) throws IOException {
        try (OutputStream os = Files.newOutputStream(jarFile); JarOutputStream jar = new JarOutputStream(os);
             Stream<Path> walk = Files.walk(classes)) {
            for (Path p : walk.filter(Files::isRegularFile).sorted().toList()) {
                jar.putNextEntry(new JarEntry(classes.relativize(p).toString().replace('\\', '/')));
                Files.copy(p, jar);
                jar.closeEntry();
            }
        }
        return jarFile;
    }
}
