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
        // the first run records the class-data archive in the (writable) install directory, in the background
        assertTrue(version.output.contains("recording its start-up archive in the background"), version.output);
        awaitRecording(home);
        assertTrue(archive(home).isPresent(), "recorded in the install directory");
        try (Stream<Path> files = Files.list(work.getParent())) {
            assertEquals(List.of("my-specs"), files.map(f -> f.getFileName().toString()).toList(),
                    "nothing left in the directory it ran from (was .gradcheck_cache from the recording)");
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
            Result version = run(tmp, Map.of("XDG_CACHE_HOME", cache.toString(), "GRADCHECK_CDS", "record"),
                    home.resolve("bin/gradcheck").toString(), "--version");
            assertEquals(0, version.exit, version.output);
            try (Stream<Path> files = Files.list(cache.resolve("gradcheck"))) {
                assertTrue(files.anyMatch(f -> f.getFileName().toString().endsWith(".jsa")), version.output);
            }
        } finally {
            Files.setPosixFilePermissions(home, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
    }

    @Test
    void aDamagedTruncatedOrSpecialArchiveIsRecordedAgainNeverMapped() throws Exception {
        Path cache = tmp.resolve("damage-cache");
        Map<String, String> env = Map.of("XDG_CACHE_HOME", cache.toString(), "GRADCHECK_CDS", "record");
        Path work = Files.createDirectories(tmp.resolve("damage-work"));
        String gradcheck = home.resolve("bin/gradcheck").toString();
        assertEquals(0, run(work, env, gradcheck, "--version").exit);
        Path jsa = archive(home).orElseThrow();
        // truncated: the JVM that maps it dies (SIGBUS, exit 134) on every start
        try (var f = java.nio.channels.FileChannel.open(jsa, java.nio.file.StandardOpenOption.WRITE)) {
            f.truncate(Files.size(jsa) / 2);
        }
        Result truncated = run(work, env, gradcheck, "--version");
        assertEquals(0, truncated.exit, truncated.output);
        assertTrue(truncated.output.contains("recording"), "recorded again: " + truncated.output);
        assertEquals(Files.readString(Path.of(jsa + ".size")).strip(), Long.toString(Files.size(jsa)));
        // a FIFO in its place: opening it would wait for a writer forever
        Files.delete(jsa);
        assertEquals(0, new ProcessBuilder("mkfifo", jsa.toString()).start().waitFor());
        Result fifo = run(work, env, gradcheck, "--version");
        assertEquals(0, fifo.exit, fifo.output);
        assertTrue(Files.isRegularFile(jsa, java.nio.file.LinkOption.NOFOLLOW_LINKS), "recorded again");
        try (Stream<Path> files = Files.list(work)) {
            assertEquals(List.of(), files.toList(), "no hs_err file, no cache in the working directory");
        }
    }

    @Test
    void noArchiveIsRecordedOrMappedWhereAnotherUserCouldWrite() throws Exception {
        Path install = Files.createDirectories(tmp.resolve("shared-install/bin"));
        Files.copy(home.resolve("bin/gradcheck"), install.resolve("gradcheck"));
        install = install.getParent();
        Files.createSymbolicLink(install.resolve("lib"), home.resolve("lib"));
        Files.setPosixFilePermissions(install, PosixFilePermissions.fromString("rwxrwxrwx"));
        Path openCache = Files.createDirectories(tmp.resolve("open-cache/gradcheck"));
        Files.setPosixFilePermissions(openCache, PosixFilePermissions.fromString("rwxrwxrwx"));
        String gradcheck = install.resolve("bin/gradcheck").toString();
        // a world-writable install directory, and a cache directory others may write: neither is used
        Result open = run(tmp, Map.of("XDG_CACHE_HOME", openCache.getParent().toString(), "GRADCHECK_CDS", "record"),
                gradcheck, "--version");
        assertEquals(0, open.exit, open.output);
        assertFalse(open.output.contains("recording"), open.output);
        assertTrue(archive(install).isEmpty() && archive(openCache).isEmpty(), "nothing recorded there");
        // no HOME, no XDG_CACHE_HOME: no archive at all, rather than one under /tmp
        Result homeless = runWithout(tmp, List.of("HOME", "XDG_CACHE_HOME"), gradcheck, "--version");
        assertEquals(0, homeless.exit, homeless.output);
        assertFalse(homeless.output.contains("recording"), homeless.output);
    }

    /** The archive recorded in {@code dir}, if any. */
    private static java.util.Optional<Path> archive(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.getFileName().toString().matches("gradcheck-\\d+\\.jsa")).findFirst();
        }
    }

    /** Waits, on the directory's events, until no recording holds its lock there. */
    private static void awaitRecording(Path dir) throws Exception {
        try (java.nio.file.WatchService watch = dir.getFileSystem().newWatchService()) {
            dir.register(watch, java.nio.file.StandardWatchEventKinds.ENTRY_DELETE);
            while (true) {
                try (Stream<Path> files = Files.list(dir)) {
                    if (files.noneMatch(f -> f.getFileName().toString().endsWith(".jsa.lock"))) {
                        return;
                    }
                }
                java.nio.file.WatchKey key = watch.poll(5, TimeUnit.MINUTES);
                assertTrue(key != null, "the background recording ended");
                key.pollEvents();
                key.reset();
            }
        }
    }

    private record Result(int exit, String output) {}

    private static Result runWithout(Path dir, List<String> unset, String... command) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true);
        unset.forEach(pb.environment()::remove);
        pb.environment().remove("GRADCHECK_CLASSPATH");
        pb.environment().put("GRADCHECK_CDS", "record");
        Process p = pb.start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor(5, TimeUnit.MINUTES);
        return new Result(p.exitValue(), output);
    }

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
