package dev.gradcheck.cli.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.backend.TestWorkerMain;
import dev.gradcheck.backend.WorkerOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shell's one warm worker JVM: every check of a session runs in it (the shell's own re-checks and
 * {@code check PATH} typed at the prompt), an edited spec reaches it as text, and after a crash the shell says so
 * and a fresh worker takes the next check. The test worker's {@code test-pid} op errors with its JVM's process id,
 * which tells the workers apart.
 */
@Tag("slow") // starts worker JVMs
class ShellWorkerTest {

    private static final Pattern PID = Pattern.compile("worker pid (\\d+)");

    @TempDir
    Path dir;

    @Test
    void oneWarmWorkerServesEveryCheckAndAFreshOneFollowsACrash() throws IOException {
        Path specs = Files.writeString(dir.resolve("workers.yaml"), """
                name: pid
                op: test-pid
                inputs: {x: {shape: [2]}}
                ---
                name: exits
                op: test-exit
                attrs: {code: 7}
                inputs: {x: {shape: [2]}}
                """);
        Path pidOnly = Files.writeString(dir.resolve("pid.yaml"), "name: pid-file\nop: test-pid\ninputs: {x: {shape: [2]}}\n");
        ShellRun run = ShellRun.withWorkers(TestWorkerMain.options(), String.join("\n",
                "load " + specs + " pid", "check", "check", "check " + pidOnly,
                "load " + specs + " exits", "check",
                "load " + specs + " pid", "check", ""));
        List<String> pids = pids(run.out());
        assertEquals(4, pids.size(), run.out());
        assertEquals(pids.get(0), pids.get(1), "a re-check runs in the same worker JVM");
        assertEquals(pids.get(0), pids.get(2), "so does check PATH typed at the prompt");
        assertNotEquals(pids.get(0), pids.get(3), "after the crash, a fresh worker");
        assertTrue(run.out().contains("CRASHED  exits"), run.out());
        assertTrue(run.out().contains("exit status 7") || run.out().contains("status 7"), run.out());
        assertTrue(run.err().contains("the warm worker crashed; a new one is starting"), run.err());
        assertEquals(3, run.exit(), "an operator error and a crash: the script exits 3");
        assertFalse(run.hasStackTrace());
    }

    @Test
    void anEditedSpecReachesTheWorkerAsEdited() throws IOException {
        Path file = Files.writeString(dir.resolve("pid.yaml"), "name: edited\nop: test-pid\ninputs: {x: {shape: [3]}}\n");
        ShellRun run = ShellRun.withWorkers(TestWorkerMain.options(), "load " + file + "\ncheck\nset op tanh\ncheck\n"
                + "set delta 5\ncheck\n"); // far too coarse: 0.5 passes within the measured error, 2 reads as kinks
        List<String> rows = run.out().lines().filter(l -> l.matches("(passed|FAILED|ERROR) .*")).toList();
        assertEquals(3, rows.size(), run.out());
        assertTrue(rows.get(0).startsWith("ERROR   edited  test-pid"), "the file's op: " + run.out());
        assertTrue(rows.get(1).startsWith("passed  edited  tanh"), "the worker checked the edited text: " + run.out());
        assertTrue(rows.get(2).startsWith("FAILED  edited  tanh"), "and each edit after it: " + run.out());
        assertTrue(Files.readString(file).contains("op: test-pid"), "the file is left alone");
    }

    private static List<String> pids(String out) {
        List<String> found = new ArrayList<>();
        Matcher m = PID.matcher(out);
        while (m.find()) {
            found.add(m.group(1));
        }
        return found;
    }

    /**
     * A check at the prompt keeps stderr as clean as {@code gradcheck check}: what ND4J and libnd4j print stays in
     * the check's log (and an operator error quotes libnd4j), unless that check asked for --verbose.
     */
    @Test
    void checksAtThePromptKeepEngineOutputOffStderrUnlessVerbose() throws IOException {
        Path file = Files.writeString(dir.resolve("matmul.yaml"), """
                name: matmul-bad
                op: matmul
                inputs:
                  x: {shape: [3, 2]}
                  y: {shape: [3, 4]}
                """);
        String cause = "xDim 2 != yDim 3";
        ShellRun run = ShellRun.withWorkers(WorkerOptions.cpu(), String.join("\n",
                "load " + file, "check", "mark-one", "check --verbose", "mark-two", "check " + file, "mark-three",
                "check " + file + " --verbose", ""));
        assertTrue(run.out().contains("libnd4j: ShapeUtils::evalShapeForMatmul"), "the row says why: " + run.out());
        String err = run.err();
        int one = err.indexOf("mark-one");
        int two = err.indexOf("mark-two");
        int three = err.indexOf("mark-three");
        assertTrue(one >= 0 && two > one && three > two, err);
        for (String quiet : new String[] {err.substring(0, one), err.substring(two, three)}) {
            for (String noise : new String[] {"NativeOpExecutioner", "ShapeUtils", cause}) {
                assertFalse(quiet.contains(noise), noise + " on stderr without --verbose: " + err);
            }
        }
        assertTrue(err.substring(one, two).contains(cause), "check --verbose (the shell's re-check): " + err);
        assertTrue(err.substring(three).contains(cause), "check PATH --verbose: " + err);
        assertFalse(run.hasStackTrace());
    }
}
