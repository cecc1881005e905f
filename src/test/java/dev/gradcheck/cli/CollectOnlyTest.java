package dev.gradcheck.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code check --collect-only} never starts ND4J: in a fresh JVM that logs every class it loads, listing the whole
 * spec suite loads no class of ND4J or JavaCPP, while {@code validate --in-process}, which must build ops in that
 * JVM, does (so the probe would see it).
 */
@Tag("slow") // two fresh JVMs
class CollectOnlyTest {

    @TempDir
    Path dir;

    private record Run(int exit, String out, List<String> loaded) {}

    private Run gradcheck(String... args) throws IOException, InterruptedException {
        Path classes = dir.resolve("classes-" + System.nanoTime() + ".log");
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-Xlog:class+load=info:file=" + classes, "-cp", System.getProperty("java.class.path"),
                Main.class.getName()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectError(dir.resolve("stderr.txt").toFile()).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "gradcheck did not finish");
        return new Run(p.exitValue(), out, Files.readAllLines(classes));
    }

    private static boolean loadsNd4j(List<String> loaded) {
        return loaded.stream().anyMatch(l -> l.contains(" org.nd4j.") || l.contains(" org.bytedeco."));
    }

    @Test
    void collectOnlyListsTheWholeSuiteWithoutLoadingNd4j() throws Exception {
        Run collect = gradcheck("check", "specs", "--collect-only", "--format", "json", "--cache-dir",
                dir.resolve("cache").toString());
        assertEquals(0, collect.exit(), collect.out());
        JsonNode listing = new ObjectMapper().readTree(collect.out());
        assertTrue(listing.get("selected").asInt() > 250, collect.out());
        assertTrue(collect.loaded().stream().anyMatch(l -> l.contains(" dev.gradcheck.cli.CollectListing ")),
                "the class log works");
        assertFalse(loadsNd4j(collect.loaded()), "ND4J was loaded: " + collect.loaded().stream()
                .filter(l -> l.contains("org.nd4j") || l.contains("org.bytedeco")).findFirst().orElse(""));

        Path one = Files.writeString(dir.resolve("tanh.yaml"), "op: tanh\ninputs: {x: {shape: [2]}}\n");
        // (validate in workers builds ops in the worker JVM, and checks names against the build's op catalog here)
        Run validate = gradcheck("validate", "--in-process", one.toString());
        assertEquals(0, validate.exit(), validate.out());
        assertTrue(loadsNd4j(validate.loaded()), "validate --in-process builds the op with ND4J: the probe sees that");
    }
}
