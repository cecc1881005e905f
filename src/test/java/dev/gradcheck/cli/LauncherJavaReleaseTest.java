package dev.gradcheck.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * bin/gradcheck allows what ND4J's libraries do (native loads, sun.misc.Unsafe) only on a Java that knows the
 * options and would otherwise warn (24 and later), read from the {@code release} file of the java on the PATH: a
 * JVM refuses to start on an option it does not know. Read from the command line handed to a stand-in {@code java}.
 */
class LauncherJavaReleaseTest {

    private static final List<String> ALLOWED =
            List.of("--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow");

    @TempDir
    Path dir;

    @Test
    void java24AndLaterAreToldToAllowNativeAccessOlderOnesAndUnknownOnesAreNot() throws Exception {
        for (List<String> command : List.of(List.of("check", "specs/"), List.of("list-ops"))) {
            assertEquals(ALLOWED, allowed("JAVA_VERSION=\"25.0.3\"", command), command.toString());
            assertEquals(ALLOWED, allowed("JAVA_VERSION=\"24\"", command));
            assertEquals(List.of(), allowed("JAVA_VERSION=\"23.0.2\"", command), "23 does not warn");
            assertEquals(List.of(), allowed("JAVA_VERSION=\"17.0.15\"", command), "17 does not know the second");
            assertEquals(List.of(), allowed(null, command), "no release file: nothing it might not know");
            assertEquals(List.of(), allowed("JAVA_VERSION=\"ea\"", command), "a version it cannot read");
        }
    }

    /** The options of {@link #ALLOWED} the launcher passed to a java whose home has this release file line. */
    private List<String> allowed(String releaseLine, List<String> command) throws IOException, InterruptedException {
        Path home = dir.resolve("jdk");
        Path java = home.resolve("bin/java");
        Files.createDirectories(java.getParent());
        Files.writeString(java, "#!/bin/sh\nprintf '%s\\n' \"$@\" > \"$ARGS_FILE\"\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.deleteIfExists(home.resolve("release"));
        if (releaseLine != null) {
            Files.writeString(home.resolve("release"), "IMPLEMENTOR=\"Someone\"\n" + releaseLine + "\nOS_NAME=\"Linux\"\n");
        }
        Path args = dir.resolve("args.txt");
        ProcessBuilder pb = new ProcessBuilder(new java.util.ArrayList<>(List.of("bin/gradcheck")));
        pb.command().addAll(command);
        pb.environment().put("PATH", java.getParent() + File.pathSeparator + System.getenv("PATH"));
        pb.environment().put("GRADCHECK_CLASSPATH", "unused");
        pb.environment().put("ARGS_FILE", args.toString());
        pb.environment().put("TMPDIR", dir.toString());
        pb.environment().remove("GRADCHECK_OPTS");
        pb.environment().remove("JAVA_OPTS");
        pb.redirectErrorStream(true).redirectOutput(dir.resolve("out.txt").toFile());
        assertEquals(0, pb.start().waitFor(), Files.readString(dir.resolve("out.txt")));
        return Files.readAllLines(args).stream().filter(ALLOWED::contains).toList();
    }
}
