package dev.gradcheck.build;

import dev.gradcheck.backend.BackendFactory;
import dev.gradcheck.backend.WorkerOptions;
import dev.gradcheck.cli.Main;
import dev.gradcheck.cli.options.Workspace;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The run the build records gradcheck's class-data-sharing archive from ({@code pom.xml}: {@code java
 * -XX:ArchiveClassesAtExit=target/gradcheck.jsa ... ArchiveTraining}). It uses, in one JVM, the classes that a
 * front end and a worker load: the command tree and help, list-ops, validate, coverage, checks of one-op and graph
 * specs in each mode and every report format, and a check in a worker (for the front end's side of it). Java 17
 * archives the classes loaded by the time this JVM exits; every later JVM started with
 * {@code -XX:SharedArchiveFile} maps them instead of reading, parsing and verifying them from the jars again.
 */
public final class ArchiveTraining {

    /** Small specs touching what real ones do: modes, dtypes, a graph with a clip, second order. */
    private static final String SPECS = """
            name: tanh
            op: tanh
            inputs:
              x: {shape: [3, 4], init: {uniform: [-2, 2]}}
            ---
            name: softmax-fast
            op: softmax
            attrs: {dimension: 1}
            mode: fast
            inputs:
              x: {shape: [2, 5]}
            ---
            name: matmul-float32
            op: matmul
            inputs:
              a: {shape: [2, 3], dtype: float32}
              b: {shape: [3, 2], dtype: float32}
            ---
            name: sum-order-2
            op: reduce_sum
            attrs: {dimensions: [1]}
            order: 2
            inputs:
              x: {shape: [2, 3]}
            ---
            name: relu-kinks
            op: relu
            inputs:
              x: {shape: [6], init: {values: [-1, 0, 1, 2, -2, 0.5]}}
            expect: pass
            ---
            name: graph-clip
            graph:
              - {op: matmul, in: [x, w], out: h, error_clip: {max: 0.3}}
              - {op: tanh, in: [h], out: y}
            inputs:
              x: {shape: [2, 3]}
              w: {shape: [3, 2]}
            ---
            name: graph-whole
            graph:
              - {op: sin, in: [x], out: s}
              - {op: multiply, in: [s, s], out: y}
            inputs:
              x: {shape: [4]}
            """;

    private ArchiveTraining() {}

    public static void main(String[] args) throws IOException {
        System.setOut(new java.io.PrintStream(java.io.OutputStream.nullOutputStream())); // SameDiff's chatter
        Path dir = Files.createTempDirectory("gradcheck-archive-training");
        try {
            Path specs = Files.writeString(dir.resolve("training.yaml"), SPECS);
            Files.writeString(dir.resolve("invalid.yaml"), "name: typo\nop: tanhh\ninputs:\n  x: {shape: [2]}\n");
            String out = dir.resolve("report").toString();
            List<String[]> commands = new ArrayList<>(List.of(
                    new String[] {"--help"}, new String[] {"check", "--help"}, new String[] {"--version"},
                    new String[] {"list-ops"}, new String[] {"list-ops", "--json", "soft*"},
                    new String[] {"validate", "--static", dir.toString()}, new String[] {"validate", dir.toString()},
                    new String[] {"coverage", dir.toString()}, new String[] {"coverage", "--json", dir.toString()},
                    new String[] {"check", "--in-process", specs.toString()},
                    new String[] {"check", "--in-process", "--only", "tanh", "--format", "json", "--output", out,
                        specs.toString()},
                    new String[] {"check", "--in-process", "--only", "tanh", "--format", "junit", specs.toString()},
                    new String[] {"check", "--only", "tanh", specs.toString()})); // the front end's worker side
            PrintWriter none = new PrintWriter(Writer.nullWriter());
            // run from the training directory: a check records its failures there (.gradcheck_cache), and that
            // must not be left in the directory the user ran gradcheck from
            Workspace there = Workspace.at(dir, Map.of("GRADCHECK_CACHE_DIR", dir.resolve("cache").toString()));
            for (String[] command : commands) {
                Main.commandLine(none, none, BackendFactory.CPU, WorkerOptions.cpu(), there).execute(command);
            }
        } finally {
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
        System.exit(0); // ND4J's threads would keep the JVM, and so the archive, waiting
    }
}
