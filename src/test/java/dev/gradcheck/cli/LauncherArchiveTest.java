package dev.gradcheck.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A source checkout's start-up archive, target/gradcheck.jsa, as bin/gradcheck treats it. A JVM ignores an archive
 * another release recorded, silently, so it is mapped only for the release its header names, and another Java
 * records one of its own (an AOT cache on 25 and later) beside it. One that crashes the JVM as it starts (truncated)
 * is set aside once, and this Java's own recorded, so that the next run is fast again. Stand-in JDKs: a home with a
 * {@code release} file and a {@code bin/java} that records an "archive" whose header names its release, dies as it
 * starts on one that says it is truncated, and otherwise writes down the command line it was given.
 */
class LauncherArchiveTest {

    private static final String STAND_IN = """
            #!/bin/bash
            archive= dir=
            for a in "$@"; do
              case "$a" in
                -XX:ArchiveClassesAtExit=*|-XX:AOTCacheOutput=*)
                  printf '%s' "HEADER" > "${a#*=}"; echo "${a%%=*}" >> "$RECORDED"; exit 0 ;;
                -XX:SharedArchiveFile=*) archive="${a#*=}" ;;
                -Dgradcheck.onejvm.dir=*) dir="${a#*=}" ;;
              esac
            done
            if [ "${*: -1}" = -version ]; then  # the launcher asks whether the archive crashes a JVM
              crash=; grep -q truncated "$archive" && crash=1
              [ -n "${RACE:-}" ] && mv "$archive" "$archive.damaged"  # another run set it aside first
              [ -z "$crash" ]; exit
            fi
            if [ -n "$dir" ] && { [ -n "${CRASH_AT_START:-}" ] || { [ -n "$archive" ] && grep -q truncated "$archive"; }; }
            then
              touch "$dir/hs_err_42.log"; exit 1
            fi
            printf '%s\\n' "$@" > "$ARGS_FILE"
            """;

    @TempDir
    Path dir;
    private Path home;
    private Path buildArchive;

    @BeforeEach
    void sourceCheckoutBuiltByJava17() throws IOException {
        home = dir.resolve("checkout");
        Path launcher = home.resolve("bin/gradcheck");
        Files.createDirectories(launcher.getParent());
        Files.createDirectories(home.resolve("target/lib"));
        Files.copy(Path.of("bin/gradcheck"), launcher);
        Files.setPosixFilePermissions(launcher, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.writeString(home.resolve("target/gradcheck.jar"), "jar");
        buildArchive = home.resolve("target/gradcheck.jsa");
        Files.writeString(buildArchive, header("17.0.15+6-Debian"));
        Files.setLastModifiedTime(home.resolve("target/gradcheck.jar"),
                FileTime.fromMillis(System.currentTimeMillis() - 60_000));
        jdk("jdk-17", "17.0.15", "17.0.15+6-Debian");
        jdk("jdk-25", "25.0.3", "25.0.3+9-LTS");
    }

    @Test
    void eachJavaMapsAnArchiveOfItsOwnAndSwitchingBackRecordsNothing() throws Exception {
        Run build = run("jdk-17", "list-ops");
        assertEquals(List.of("-XX:SharedArchiveFile=" + buildArchive), build.archive());
        assertEquals("", build.err(), "the build's Java: its archive, nothing said");

        Run other = run("jdk-25", "list-ops");
        assertTrue(other.err().contains("is not the one that recorded target/gradcheck.jsa: recording its start-up"
                + " archive now"), other.err());
        assertEquals(List.of("-XX:AOTCacheOutput"), recordings(), "25 records an AOT cache");
        assertEquals(1, other.archive().size(), other.toString());
        String own = other.archive().get(0);
        assertTrue(own.matches("-XX:SharedArchiveFile=" + home.resolve("target") + "/gradcheck-\\d+\\.jsa"), own);

        assertEquals(new Run(build.archive(), ""), run("jdk-17", "list-ops"), "back to 17: the build's archive");
        assertEquals(new Run(List.of(own), ""), run("jdk-25", "list-ops"), "and 25's own, recorded once");
        assertEquals(List.of("-XX:AOTCacheOutput"), recordings());
    }

    @Test
    void anArchiveOfAnotherUpdateIsNotMapped() throws Exception {
        Files.writeString(buildArchive, header("17.0.14+7-Debian"));
        Run update = run("jdk-17", "list-ops");
        assertTrue(update.archive().get(0).matches("-XX:SharedArchiveFile=.*/gradcheck-\\d+\\.jsa"), update.toString());
        assertEquals(List.of("-XX:ArchiveClassesAtExit"), recordings(), "17 records a dynamic archive");
    }

    @Test
    void anArchiveThatCrashesTheStartIsSetAsideOnceAndTheNextRunMapsThisJavasOwn() throws Exception {
        Files.writeString(buildArchive, header("17.0.15+6-Debian") + " truncated");
        Run crashed = run("jdk-17", "check", "specs/");
        assertEquals(List.of(), crashed.archive(), "the rerun in workers maps none");
        assertEquals("gradcheck: the JVM crashed as it started (exit 1): its start-up archive " + buildArchive
                + " was damaged: set aside as gradcheck.jsa.damaged, and one recorded in the background; running the"
                + " specs again, each in a worker JVM\n", crashed.err());
        assertFalse(Files.exists(buildArchive, LinkOption.NOFOLLOW_LINKS));
        assertTrue(Files.readString(Path.of(buildArchive + ".damaged")).contains("truncated"), "kept to look at");
        assertEquals(List.of("-XX:ArchiveClassesAtExit"), recordings());

        Run next = run("jdk-17", "check", "specs/");
        assertEquals("", next.err(), "said once");
        assertTrue(next.archive().get(0).matches("-XX:SharedArchiveFile=.*/gradcheck-\\d+\\.jsa"), next.toString());
        assertEquals(List.of("-XX:ArchiveClassesAtExit"), recordings(), "recorded once");
    }

    /**
     * A build archive whose size is not the one the build wrote beside it (cut short as it was written) would kill
     * Java 17 as it maps it, in list-ops and validate too, where no launcher stands by: it is set aside unmapped.
     */
    @Test
    void aBuildArchiveCutShortIsSetAsideBeforeAnyJvmMapsIt() throws Exception {
        Path size = Path.of(buildArchive + ".size");
        Files.writeString(size, Files.size(buildArchive) + "\n");
        assertEquals(new Run(List.of("-XX:SharedArchiveFile=" + buildArchive), ""), run("jdk-17", "list-ops"),
                "the size the build wrote: mapped");

        Files.writeString(size, (Files.size(buildArchive) + 4096) + "\n");
        Run cut = run("jdk-17", "list-ops");
        assertTrue(cut.err().startsWith("gradcheck: target/gradcheck.jsa is not the size the build wrote (cut short):"
                + " set aside as gradcheck.jsa.damaged: recording its start-up archive now"), cut.err());
        assertFalse(Files.exists(buildArchive, LinkOption.NOFOLLOW_LINKS));
        assertTrue(Files.exists(Path.of(buildArchive + ".damaged")), "kept to look at");
        assertFalse(Files.exists(size), "its size goes with it");
        assertEquals(1, cut.archive().size(), cut.toString());
        assertTrue(cut.archive().get(0).matches("-XX:SharedArchiveFile=.*/gradcheck-\\d+\\.jsa"), "this Java's own");

        assertEquals(new Run(cut.archive(), ""), run("jdk-17", "validate", "specs/"), "said once, its own mapped");
        assertEquals(List.of("-XX:ArchiveClassesAtExit"), recordings(), "recorded once");
    }

    @Test
    void aCrashTheArchiveDidNotCauseKeepsItAndOneAnotherRunSetAsideIsNotSetAsideTwice() throws Exception {
        Run nd4jStart = run("jdk-17", Map.of("CRASH_AT_START", "1"), "check", "specs/");
        assertTrue(nd4jStart.err().startsWith("gradcheck: the JVM crashed as it started (exit 1: ND4J's native start, or a"
                + " damaged start-up archive, now left out)"), nd4jStart.err());
        assertTrue(Files.exists(buildArchive), "an archive the JVM maps without crashing is kept");

        Files.writeString(buildArchive, header("17.0.15+6-Debian") + " truncated");
        Run race = run("jdk-17", Map.of("RACE", "1"), "check", "specs/");
        assertTrue(race.err().startsWith("gradcheck: the JVM crashed as it started (exit 1: ND4J's"), race.err());
        assertEquals(List.of(), recordings(), "the run that set it aside records");
    }

    @Test
    void aSymlinkOrAnotherUsersArchiveIsNeverMapped() throws Exception {
        Path elsewhere = Files.writeString(dir.resolve("elsewhere.jsa"), header("17.0.15+6-Debian"));
        Files.delete(buildArchive);
        Files.createSymbolicLink(buildArchive, elsewhere);
        Run link = run("jdk-17", "check", "specs/");
        assertEquals(0, link.archive().stream().filter(a -> a.contains("gradcheck.jsa")).count(), link.toString());
        assertTrue(Files.isSymbolicLink(buildArchive), "left as it is");

        assumeTrue("root".equals(System.getProperty("user.name")), "only root can give a file to another user");
        Files.delete(buildArchive);
        Files.writeString(buildArchive, header("17.0.15+6-Debian"));
        Files.getFileAttributeView(buildArchive, java.nio.file.attribute.PosixFileAttributeView.class).setOwner(
                buildArchive.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody"));
        Run other = run("jdk-17", "check", "specs/");
        assertEquals(0, other.archive().stream().filter(a -> a.contains("gradcheck.jsa")).count(), other.toString());
        assertTrue(other.archive().get(0).matches(".*/gradcheck-\\d+\\.jsa"), "this user's own: " + other);
    }

    private record Run(List<String> archive, String err) {}

    private Run run(String jdk, String... args) throws IOException, InterruptedException {
        return run(jdk, Map.of(), args);
    }

    private Run run(String jdk, Map<String, String> env, String... args) throws IOException, InterruptedException {
        Path argsFile = dir.resolve("args.txt");
        Files.deleteIfExists(argsFile);
        ProcessBuilder pb = new ProcessBuilder(new java.util.ArrayList<>(List.of(home.resolve("bin/gradcheck").toString())));
        pb.command().addAll(List.of(args));
        pb.environment().put("PATH", dir.resolve(jdk + "/bin") + File.pathSeparator + System.getenv("PATH"));
        pb.environment().put("ARGS_FILE", argsFile.toString());
        pb.environment().put("RECORDED", dir.resolve("recorded.txt").toString());
        pb.environment().put("TMPDIR", dir.toString());
        pb.environment().put("GRADCHECK_CDS", "record"); // in the foreground: the next run finds it
        List.of("GRADCHECK_CLASSPATH", "GRADCHECK_OPTS", "JAVA_OPTS", "GRADCHECK_ONE_JVM", "GRADCHECK_DEBUG")
                .forEach(pb.environment()::remove);
        pb.environment().putAll(env);
        pb.redirectOutput(dir.resolve("out.txt").toFile()).redirectError(dir.resolve("err.txt").toFile());
        assertEquals(0, pb.start().waitFor(), Files.readString(dir.resolve("err.txt")));
        List<String> archive = Files.readAllLines(argsFile).stream()
                .filter(a -> a.startsWith("-XX:SharedArchiveFile=")).toList();
        return new Run(archive, Files.readString(dir.resolve("err.txt")));
    }

    private List<String> recordings() throws IOException {
        Path recorded = dir.resolve("recorded.txt");
        return Files.exists(recorded) ? Files.readAllLines(recorded) : List.of();
    }

    /** What a JVM writes at the start of an archive's header: the VM and its release. */
    private static String header(String release) {
        return "OpenJDK 64-Bit Server VM (" + release + ") for linux-amd64 JRE (" + release + ")";
    }

    private void jdk(String name, String version, String runtime) throws IOException {
        Path bin = Files.createDirectories(dir.resolve(name + "/bin"));
        Files.writeString(bin.getParent().resolve("release"),
                "JAVA_VERSION=\"" + version + "\"\nJAVA_RUNTIME_VERSION=\"" + runtime + "\"\n");
        Path java = bin.resolve("java");
        Files.writeString(java, STAND_IN.replace("HEADER", header(runtime)));
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
}
