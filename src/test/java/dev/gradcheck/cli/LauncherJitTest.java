package dev.gradcheck.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which JVMs bin/gradcheck starts with C1 alone: every one that lives for one command; bench and a shell checking
 * in its own JVM keep C2. Read from the command line the launcher hands a stand-in {@code java}.
 */
class LauncherJitTest {

    private static final String C1 = "-XX:TieredStopAtLevel=1";

    @Test
    void oneCommandJvmsCompileWithC1AloneAndLongLivedCheckingJvmsKeepC2(@TempDir Path dir) throws Exception {
        Path java = dir.resolve("bin/java");
        Files.createDirectories(java.getParent());
        Files.writeString(java, "#!/bin/sh\nprintf '%s\\n' \"$@\" > \"$ARGS_FILE\"\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        Map<List<String>, Boolean> c1 = Map.of(
                List.of("check", "specs/"), true,
                List.of("check", "--in-process", "specs/"), true,
                List.of("validate", "specs/"), true,
                List.of("list-ops"), true,
                List.of("shell"), true, // its front end; the shell's worker keeps C2 (WorkerOptions)
                List.of("bench"), false,
                List.of("shell", "--in-process"), false);
        for (Map.Entry<List<String>, Boolean> e : c1.entrySet()) {
            Path args = dir.resolve("args.txt");
            ProcessBuilder pb = new ProcessBuilder(new java.util.ArrayList<>(List.of("bin/gradcheck")));
            pb.command().addAll(e.getKey());
            pb.environment().put("PATH", java.getParent() + File.pathSeparator + System.getenv("PATH"));
            pb.environment().put("GRADCHECK_CLASSPATH", "unused");
            pb.environment().put("ARGS_FILE", args.toString());
            pb.environment().remove("GRADCHECK_OPTS");
            pb.environment().remove("JAVA_OPTS");
            pb.redirectErrorStream(true).redirectOutput(dir.resolve("out.txt").toFile());
            assertEquals(0, pb.start().waitFor(), Files.readString(dir.resolve("out.txt")));
            List<String> passed = Files.readAllLines(args);
            assertEquals(e.getValue(), passed.contains(C1), String.join(" ", e.getKey()) + ": " + passed);
        }
    }
}
