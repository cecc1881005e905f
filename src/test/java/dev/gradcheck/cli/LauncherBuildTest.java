package dev.gradcheck.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.File;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * bin/gradcheck's build on first use leaves the caller's stdin to gradcheck: what is piped in (bench --serve's
 * requests) reaches the JVM, not Maven (which, with the archive's training run, read it away before). Run with a
 * stand-in {@code mvn} and {@code java} on the PATH, each recording what it reads.
 */
class LauncherBuildTest {

    @Test
    void whatIsPipedInReachesGradcheckNotTheBuild(@TempDir Path dir) throws Exception {
        Path home = dir.resolve("home");
        Path launcher = home.resolve("bin/gradcheck");
        Files.createDirectories(launcher.getParent());
        Files.createDirectories(home.resolve("src/main"));
        Files.writeString(home.resolve("pom.xml"), "<project/>");
        Files.copy(Path.of("bin/gradcheck"), launcher);
        Path bin = dir.resolve("fake-bin");
        Files.createDirectories(bin);
        script(bin.resolve("mvn"), "#!/bin/sh\ncat > \"$MVN_READ\"\nmkdir -p target/lib && touch target/gradcheck.jar\n");
        script(bin.resolve("java"), "#!/bin/sh\ncat > \"$JAVA_READ\"\n");
        script(launcher, null);
        ProcessBuilder pb = new ProcessBuilder(launcher.toString(), "bench", "--serve");
        pb.environment().put("PATH", bin + File.pathSeparator + System.getenv("PATH"));
        pb.environment().remove("GRADCHECK_CLASSPATH");
        pb.environment().put("MVN_READ", dir.resolve("mvn-read.txt").toString());
        pb.environment().put("JAVA_READ", dir.resolve("java-read.txt").toString());
        pb.redirectErrorStream(true).redirectOutput(dir.resolve("out.txt").toFile());
        Process p = pb.start();
        try (OutputStream stdin = p.getOutputStream()) {
            stdin.write("{\"cmd\":\"cases\"}\n".getBytes(StandardCharsets.UTF_8));
        }
        assertEquals(0, p.waitFor(), Files.readString(dir.resolve("out.txt")));
        assertEquals("", Files.readString(dir.resolve("mvn-read.txt")), "the build read nothing");
        assertEquals("{\"cmd\":\"cases\"}\n", Files.readString(dir.resolve("java-read.txt")), "gradcheck read it all");
    }

    private static void script(Path path, String text) throws Exception {
        if (text != null) {
            Files.writeString(path, text);
        }
        Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
}
