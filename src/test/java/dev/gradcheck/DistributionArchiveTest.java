package dev.gradcheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The distribution archive as a user gets it: made by the pom's own assembly (src/assembly/bin.xml) from the
 * classes this build compiled, unpacked into a directory of its own and run from another working directory, with a
 * {@code mvn} on the PATH that fails if anything calls it.
 */
@Tag("slow") // a child Maven, the first run's class-data recording, and a check in a worker
class DistributionArchiveTest {

    @TempDir
    static Path tmp;
    private static Path home;

    @BeforeAll
    static void assembleAndUnpack() throws Exception {
        Path project = tmp.resolve("project");
        Files.createDirectories(project.resolve("target"));
        Files.copy(Path.of("pom.xml"), project.resolve("pom.xml"));
        Files.copy(Path.of("LICENSE"), project.resolve("LICENSE"));
        for (String dir : List.of("bin", "src/assembly", "src/dist")) {
            copyTree(Path.of(dir), project.resolve(dir));
        }
        ExampleBuild.jar(Path.of("target/classes"), project.resolve("target/gradcheck.jar"));
        String out = run(project, Map.of(), ExampleBuild.maven(), "-B", "-o", "-q", "-Dstyle.color=never",
                "-Dmaven.repo.local=" + ExampleBuild.localRepository(), "assembly:single@distribution").output;
        String version = ExampleBuild.version();
        Path tarball = project.resolve("target/gradcheck-" + version + "-bin.tar.gz");
        assertTrue(Files.isRegularFile(tarball), out);
        try (ZipFile zip = new ZipFile(project.resolve("target/gradcheck-" + version + "-bin.zip").toFile())) {
            Set<String> names = Set.copyOf(zip.stream().map(e -> e.getName()).toList());
            for (String entry : List.of("bin/gradcheck", "bin/gradcheck.cmd", "lib/gradcheck.jar", "LICENSE",
                    "README.md", "lib/picocli-4.7.7.jar", "lib/jackson-dataformat-yaml-2.17.2.jar")) {
                assertTrue(names.contains("gradcheck-" + version + "/" + entry), entry + " in " + names);
            }
        }
        Path install = tmp.resolve("install");
        Files.createDirectories(install);
        run(install, Map.of(), "tar", "xzf", tarball.toString());
        home = install.resolve("gradcheck-" + version);
    }

    @Test
    void theUnpackedArchiveRunsFromAnotherDirectoryWithoutMaven() throws Exception {
        Path work = Files.createDirectories(tmp.resolve("work/my-specs"));
        Files.writeString(work.resolve("tanh.yaml"), "name: tanh-from-elsewhere\nop: tanh\ninputs:\n  x: {shape: [3]}\n");
        Map<String, String> env = Map.of("XDG_CACHE_HOME", tmp.resolve("cache").toString());

        Result version = run(work.getParent(), env, home.resolve("bin/gradcheck").toString(), "--version");
        assertEquals(0, version.exit, version.output);
        assertTrue(version.output.matches("(?s).*gradcheck " + ExampleBuild.version()
                + " \\(ND4J 1\\.0\\.0-M2\\.1, native platform [a-z]+-[a-z0-9_]+, Java .*"), version.output);
        // the first run records the class-data archive in the (writable) install directory
        try (Stream<Path> files = Files.list(home)) {
            assertTrue(files.anyMatch(f -> f.getFileName().toString().matches("gradcheck-\\d+\\.jsa")),
                    version.output);
        }

        Result check = run(work.getParent(), env, home.resolve("bin/gradcheck").toString(), "check", "my-specs");
        assertEquals(0, check.exit, check.output);
        assertTrue(check.output.contains("tanh-from-elsewhere"), check.output);
        assertFalse(check.output.contains("recording"), "recorded once: " + check.output);
    }

    @Test
    void anInstallDirectoryItCannotWriteKeepsTheArchiveInTheUsersCache() throws Exception {
        assumeFalse("root".equals(System.getProperty("user.name")), "root writes to read-only directories");
        Path cache = tmp.resolve("user-cache");
        Files.setPosixFilePermissions(home, PosixFilePermissions.fromString("r-xr-xr-x"));
        try {
            Result version = run(tmp, Map.of("XDG_CACHE_HOME", cache.toString(), "GRADCHECK_CDS", "on"),
                    home.resolve("bin/gradcheck").toString(), "--version");
            assertEquals(0, version.exit, version.output);
            try (Stream<Path> files = Files.list(cache.resolve("gradcheck"))) {
                assertTrue(files.anyMatch(f -> f.getFileName().toString().endsWith(".jsa")), version.output);
            }
        } finally {
            Files.setPosixFilePermissions(home, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
    }

    private record Result(int exit, String output) {}

    /** Runs a command with a {@code mvn} first on the PATH that fails, saying it was called. */
    private static Result run(Path dir, Map<String, String> env, String... command) throws Exception {
        Path bin = Files.createDirectories(tmp.resolve("no-maven-bin"));
        Path mvn = bin.resolve("mvn");
        if (!Files.exists(mvn)) {
            Files.writeString(mvn, "#!/bin/sh\necho 'mvn was called' >&2\nexit 99\n");
            Files.setPosixFilePermissions(mvn, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true);
        pb.environment().putAll(env);
        pb.environment().remove("GRADCHECK_CLASSPATH");
        if (!command[0].equals(ExampleBuild.maven())) {
            pb.environment().put("PATH", bin + File.pathSeparator + System.getenv("PATH"));
        }
        Process p = pb.start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(5, TimeUnit.MINUTES)) {
            p.destroyForcibly();
        }
        return new Result(p.exitValue(), output);
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                Path target = to.resolve(from.relativize(f).toString());
                if (Files.isDirectory(f)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(f, target);
                }
            }
        }
    }
}
