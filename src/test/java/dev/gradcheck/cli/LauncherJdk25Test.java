package dev.gradcheck.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * bin/gradcheck on a real Java 25, where JavaCPP's and JLine's native loads and ND4J's protobuf's use of
 * sun.misc.Unsafe print warnings at every start unless allowed: nothing reaches the terminal, in one JVM, in
 * workers (which get the front end's options) and in the shell. Skipped where that JDK is not installed (CI has
 * Java 17 alone).
 */
@Tag("slow") // three runs on Java 25, each starting ND4J
class LauncherJdk25Test {

    static final Path JDK_25 = Path.of("/usr/lib/jvm/temurin-25-jdk-amd64");

    @TempDir
    Path dir;

    @Test
    void noJvmWarningReachesTheTerminalOnJava25() throws Exception {
        assumeTrue(Files.isExecutable(JDK_25.resolve("bin/java")), "no Java 25 at " + JDK_25);
        Path launcher = LauncherCopy.of(dir.resolve("home"));
        Files.writeString(dir.resolve("tanh.yaml"), CheckCommandTest.TANH);
        String spec = dir.resolve("tanh.yaml").toString();

        Run one = run(launcher, Map.of(), "", "check", spec);
        assertEquals(new Run(0, ""), one, "one JVM: stderr is empty");

        Run workers = run(launcher, Map.of("GRADCHECK_ONE_JVM", "off", "GRADCHECK_DEBUG", "1"), "", "check", spec);
        assertEquals(0, workers.exit(), workers.err());
        List<String> started = workers.err().lines().filter(l -> l.contains("started a cpu worker")).toList();
        assertEquals(1, started.size(), workers.err());
        assertTrue(started.get(0).contains(" --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow "),
                "the worker allows what the front end allows: " + started);
        assertTrue(workers.err().lines().noneMatch(l -> l.startsWith("WARNING")), workers.err());

        Run shell = run(launcher, Map.of(), "check " + spec + "\n", "shell");
        assertEquals(0, shell.exit(), shell.err());
        assertTrue(shell.err().lines().noneMatch(l -> l.startsWith("WARNING")), "JLine's native load: " + shell.err());
    }

    private record Run(int exit, String err) {}

    private Run run(Path launcher, Map<String, String> env, String stdin, String... args)
            throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(new java.util.ArrayList<>(List.of(launcher.toString())));
        pb.command().addAll(List.of(args));
        pb.environment().put("PATH", JDK_25.resolve("bin") + File.pathSeparator + System.getenv("PATH"));
        pb.environment().put("TMPDIR", dir.toString());
        List.of("GRADCHECK_ONE_JVM", "GRADCHECK_DEBUG", "GRADCHECK_OPTS", "JAVA_OPTS", "GRADCHECK_CLASSPATH")
                .forEach(pb.environment()::remove);
        pb.environment().putAll(env);
        Path in = Files.writeString(dir.resolve("stdin.txt"), stdin);
        pb.redirectInput(in.toFile()).redirectOutput(dir.resolve("out.txt").toFile())
                .redirectError(dir.resolve("err.txt").toFile());
        Process p = pb.start();
        assertTrue(p.waitFor(3, TimeUnit.MINUTES), "ended");
        return new Run(p.exitValue(), Files.readString(dir.resolve("err.txt")));
    }
}
