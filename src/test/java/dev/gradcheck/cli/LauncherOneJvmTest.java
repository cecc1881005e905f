package dev.gradcheck.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * bin/gradcheck's side of a check in the front end's own JVM (backend.SharedJvm): when it runs the command again
 * in workers, and when it must not. A stand-in {@code java} plays the JVM: on the offer's run it does what the
 * test's {@code FIRST} says (takes the offer or not, crashes as the JVM's error handler ends, gives up, exits),
 * and a run without the offer (the workers') prints the workers' report.
 */
class LauncherOneJvmTest {

    /** The stand-in: the offer's directory from its arguments; the first run acts, the workers' run reports. */
    private static final String STAND_IN = """
            #!/bin/bash
            dir=
            for a in "$@"; do
              case "$a" in -Dgradcheck.onejvm.dir=*) dir="${a#-Dgradcheck.onejvm.dir=}" ;; esac
            done
            if [ -z "$dir" ]; then
              printf '%s\n' "$@" > "$SEEN_DIR.workers"
              echo "workers' report" >&3
              exit 3
            fi
            echo "$dir" > "$SEEN_DIR"
            echo "what the JVM printed on its fd 1"
            case "$FIRST" in
              start-crash) touch "$dir/hs_err_42.log"; exit 1 ;;
              crash) echo checking > "$dir/state"; touch "$dir/hs_err_42.log"; exit 1 ;;
              mismatch) echo checking > "$dir/state"; echo "one JVM's report" >&3; exit 1 ;;
              declined-crash) echo declined > "$dir/state"; touch "$dir/hs_err_42.log"; exit 1 ;;
              give-up) echo checking > "$dir/state"; exit 75 ;;
              killed) echo checking > "$dir/state"; kill -KILL $$ ;;
              term) echo checking > "$dir/state"; trap 'echo "report of what finished" >&3; exit 143' TERM
                    touch "$READY"; while :; do sleep 0.05; done ;;
            esac
            """;

    @TempDir
    Path dir;

    private record Run(int exit, String out, String err) {}

    @Test
    void aCrashAfterTheOfferWasTakenRunsTheCommandAgainInWorkers() throws Exception {
        Run r = run("crash");
        assertEquals(new Run(3, "workers' report\n", "gradcheck: a check crashed the JVM it shared with the front end"
                + " (exit 1); running the specs again, each in a worker JVM\n"), r);
        assertFalse(Files.exists(Path.of(Files.readString(dir.resolve("seen")).strip())), "its directory is removed");
    }

    @Test
    void aJvmThatGivesUpOrIsKilledIsRunAgainToo() throws Exception {
        assertEquals(new Run(3, "workers' report\n", ""), run("give-up"), "it said why itself");
        Run killed = run("killed");
        assertEquals(3, killed.exit(), killed.toString());
        assertEquals("workers' report\n", killed.out());
    }

    @Test
    void aMismatchOrARunThatDeclinedTheOfferEndsAsItEnded() throws Exception {
        assertEquals(new Run(1, "one JVM's report\n", ""), run("mismatch"),
                "exit 1 without a crash report; libnd4j's printf()s of a taken run are not shown");
        assertEquals(new Run(134, "", "what the JVM printed on its fd 1\n"), run("declined-crash"),
                "workers' front end (or --in-process): no rerun, its banner shown, the abort's code");
        Path kept = Path.of(Files.readString(dir.resolve("seen")).strip());
        assertTrue(Files.exists(kept.resolve("hs_err_42.log")), "the crash report its banner names is kept");
    }

    @Test
    void aCrashBeforeAnyCheckRanIsRunAgainWithoutTheStartUpArchive() throws Exception {
        Run r = run("start-crash");
        assertEquals(3, r.exit(), r.toString());
        assertEquals("workers' report\n", r.out());
        assertTrue(r.err().startsWith("gradcheck: the JVM crashed as it started (exit 1: ND4J's native start, or a"
                + " damaged start-up archive, now left out); running the specs again"), r.err());
        assertTrue(Files.readAllLines(dir.resolve("seen.workers")).stream()
                .noneMatch(a -> a.startsWith("-XX:SharedArchiveFile=")), "no archive the second time");
    }

    @Test
    void sigtermToTheLauncherReachesTheJvmAndIsNoCrash() throws Exception {
        Path ready = dir.resolve("ready");
        Process p = launcher("term", ready).start();
        while (!Files.exists(ready)) {
            assertTrue(p.isAlive(), "the stand-in waits for the signal");
            Thread.onSpinWait();
        }
        p.destroy(); // SIGTERM, to the launcher alone
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertEquals(143, p.exitValue());
        assertEquals("report of what finished\n", Files.readString(dir.resolve("out.txt")));
    }

    @Test
    void aClosedStdinIsNoError() throws Exception {
        ProcessBuilder pb = launcher("mismatch", dir.resolve("ready"));
        pb.command().clear();
        pb.command().addAll(List.of("bash", "-c", "bin/gradcheck check specs/ <&-"));
        assertEquals(1, pb.start().waitFor(), Files.readString(dir.resolve("err.txt")));
        assertEquals("one JVM's report\n", Files.readString(dir.resolve("out.txt")));
    }

    @Test
    void noOfferWhenSwitchedOffOrForOtherCommands() throws Exception {
        ProcessBuilder off = launcher("crash", dir.resolve("ready"));
        off.environment().put("GRADCHECK_ONE_JVM", "off");
        assertEquals(3, off.start().waitFor());
        ProcessBuilder validate = launcher("crash", dir.resolve("ready"));
        validate.command().set(1, "validate");
        assertEquals(3, validate.start().waitFor());
        assertFalse(Files.exists(dir.resolve("seen")), "neither run was offered one JVM");
    }

    private Run run(String first) throws IOException, InterruptedException {
        Process p = launcher(first, dir.resolve("ready")).start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        return new Run(p.exitValue(), Files.readString(dir.resolve("out.txt")), Files.readString(dir.resolve("err.txt")));
    }

    private ProcessBuilder launcher(String first, Path ready) throws IOException {
        Path java = dir.resolve("bin/java");
        if (!Files.exists(java)) {
            Files.createDirectories(java.getParent());
            Files.writeString(java, STAND_IN);
            Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        ProcessBuilder pb = new ProcessBuilder(new java.util.ArrayList<>(List.of("bin/gradcheck", "check", "specs/")));
        pb.environment().put("PATH", java.getParent() + File.pathSeparator + System.getenv("PATH"));
        pb.environment().put("GRADCHECK_CLASSPATH", "unused");
        pb.environment().put("FIRST", first);
        pb.environment().put("READY", ready.toString());
        pb.environment().put("SEEN_DIR", dir.resolve("seen").toString());
        pb.environment().put("TMPDIR", dir.toString());
        pb.environment().remove("GRADCHECK_ONE_JVM");
        pb.environment().remove("GRADCHECK_DEBUG");
        return pb.redirectOutput(dir.resolve("out.txt").toFile()).redirectError(dir.resolve("err.txt").toFile());
    }
}
