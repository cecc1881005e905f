package dev.gradcheck.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A source checkout's start-up archive when the Java on the PATH is not the one Maven ran: a JVM ignores an
 * archive another release recorded, silently, so the launcher maps the build's archive only for the release its
 * header names, and records one of the other Java's own (an AOT cache on 25 and later) kept beside it. Stand-in
 * JDKs: a home with a {@code release} file and a {@code bin/java} that records an "archive" whose header names its
 * release, or writes down the command line it was given.
 */
class LauncherArchiveSwitchTest {

    @TempDir
    Path dir;
    private Path home;

    @BeforeEach
    void sourceCheckoutBuiltByJava17() throws IOException {
        home = dir.resolve("checkout");
        Path launcher = home.resolve("bin/gradcheck");
        Files.createDirectories(launcher.getParent());
        Files.createDirectories(home.resolve("target/lib"));
        Files.copy(Path.of("bin/gradcheck"), launcher);
        Files.setPosixFilePermissions(launcher, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.writeString(home.resolve("target/gradcheck.jar"), "jar");
        Files.writeString(home.resolve("target/gradcheck.jsa"), header("17.0.15+6-Debian"));
        Files.setLastModifiedTime(home.resolve("target/gradcheck.jar"),
                java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() - 60_000));
        jdk("jdk-17", "17.0.15", "17.0.15+6-Debian");
        jdk("jdk-25", "25.0.3", "25.0.3+9-LTS");
    }

    @Test
    void eachJavaMapsAnArchiveOfItsOwnAndSwitchingBackRecordsNothing() throws Exception {
        Run build = run("jdk-17");
        assertEquals(List.of("-XX:SharedArchiveFile=" + home.resolve("target/gradcheck.jsa")), build.archive());
        assertEquals("", build.err(), "the build's Java: its archive, nothing said");

        Run other = run("jdk-25");
        assertTrue(other.err().contains("is not the one that recorded target/gradcheck.jsa: recording its start-up"
                + " archive now"), other.err());
        assertEquals(List.of("-XX:AOTCacheOutput"), recordings(), "25 records an AOT cache");
        assertEquals(1, other.archive().size(), other.toString());
        String own = other.archive().get(0);
        assertTrue(own.matches("-XX:SharedArchiveFile=" + home.resolve("target") + "/gradcheck-\\d+\\.jsa"), own);

        assertEquals(new Run(build.archive(), ""), run("jdk-17"), "back to 17: the build's archive again");
        assertEquals(new Run(List.of(own), ""), run("jdk-25"), "and 25's own, recorded once");
        assertEquals(List.of("-XX:AOTCacheOutput"), recordings());
    }

    @Test
    void anArchiveThatNamesNoReleaseOrAnotherUpdateIsNotMapped() throws Exception {
        Files.writeString(home.resolve("target/gradcheck.jsa"), header("17.0.14+7-Debian"));
        Run update = run("jdk-17");
        assertTrue(update.archive().get(0).matches("-XX:SharedArchiveFile=.*/gradcheck-\\d+\\.jsa"), update.toString());
        assertEquals(List.of("-XX:ArchiveClassesAtExit"), recordings(), "17 records a dynamic archive");
    }

    private record Run(List<String> archive, String err) {}

    private Run run(String jdk) throws IOException, InterruptedException {
        Path args = dir.resolve("args.txt");
        Files.deleteIfExists(args);
        ProcessBuilder pb = new ProcessBuilder(home.resolve("bin/gradcheck").toString(), "list-ops");
        pb.environment().put("PATH", dir.resolve(jdk + "/bin") + File.pathSeparator + System.getenv("PATH"));
        pb.environment().put("ARGS_FILE", args.toString());
        pb.environment().put("RECORDED", dir.resolve("recorded.txt").toString());
        pb.environment().put("GRADCHECK_CDS", "record"); // in the foreground: the next run finds it
        List.of("GRADCHECK_CLASSPATH", "GRADCHECK_OPTS", "JAVA_OPTS").forEach(pb.environment()::remove);
        pb.redirectOutput(dir.resolve("out.txt").toFile()).redirectError(dir.resolve("err.txt").toFile());
        assertEquals(0, pb.start().waitFor(), Files.readString(dir.resolve("err.txt")));
        List<String> archive = Files.readAllLines(args).stream()
                .filter(a -> a.startsWith("-XX:SharedArchiveFile=")).toList();
        return new Run(archive, Files.readString(dir.resolve("err.txt")));
    }

    private List<String> recordings() throws IOException {
        Path recorded = dir.resolve("recorded.txt");
        return Files.exists(recorded) ? Files.readAllLines(recorded) : List.of();
    }

    /** What a JVM writes at the start of an archive's header: the VM and its release. */
    private static String header(String release) {
        return "\0\0\0\0OpenJDK 64-Bit Server VM (" + release + ") for linux-amd64 JRE (" + release + ")\0\0";
    }

    private void jdk(String name, String version, String runtime) throws IOException {
        Path jdk = Files.createDirectories(dir.resolve(name + "/bin"));
        Files.writeString(jdk.getParent().resolve("release"),
                "JAVA_VERSION=\"" + version + "\"\nJAVA_RUNTIME_VERSION=\"" + runtime + "\"\n");
        Path java = jdk.resolve("java");
        Files.writeString(java, """
                #!/bin/bash
                for a in "$@"; do
                  case "$a" in -XX:ArchiveClassesAtExit=*|-XX:AOTCacheOutput=*)
                    printf '%s' "HEADER" > "${a#*=}"; echo "${a%%=*}" >> "$RECORDED"; exit 0 ;;
                  esac
                done
                printf '%s\\n' "$@" > "$ARGS_FILE"
                """.replace("HEADER", header(runtime).replace("\0", "")));
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
}
