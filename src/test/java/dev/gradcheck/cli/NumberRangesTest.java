package dev.gradcheck.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every number has a range, checked before anything runs, with file:line:col or the option's name; validate and
 * check give one answer (issue 36, items 5 and 6).
 */
class NumberRangesTest {

    @TempDir
    Path dir;

    private Path spec(String name, String yaml) throws IOException {
        return Files.writeString(dir.resolve(name), yaml);
    }

    /** Exit 2 from both commands, the same file:line:col message, never a trace. */
    private static void bothRefuse(Path file, String where, String message) {
        for (String command : new String[] {"validate", "check"}) {
            Cli r = Cli.run(command, file.toString(), "--in-process");
            assertEquals(2, r.exit(), command + ": " + r.out() + r.err());
            String all = r.out() + r.err();
            assertTrue(all.contains(file + ":" + where + ": " + message), command + ": " + all);
            assertFalse(all.contains("Exception") || all.contains("\tat "), all);
        }
    }

    @Test
    void aDeltaBeyondFloat64sReachIsRefusedAtItsPosition() throws IOException {
        // was valid; then fast mode: gradcheck's own "no probe point at -Infinity" as the operator's ERROR
        Path file = spec("delta.yaml", "name: huge-step\nop: relu\ndelta: 1e308\ninputs:\n  x: {shape: [4]}\n");
        bothRefuse(file, "3:8", "'delta' must be between 1.0E-15 and 1000, got 1e308");
    }

    @Test
    void aTimeoutOfNoTimeIsRefusedAtItsPosition() throws IOException {
        // was valid, and printed as a 361-character duration
        Path file = spec("timeout.yaml", "name: no-time\nop: tanh\ntimeout: 1e-320\ninputs:\n  x: {shape: [4]}\n");
        bothRefuse(file, "3:10", "'timeout' must be between 0.001 and 1000000 seconds, got 1e-320");
    }

    @Test
    void aRankNd4jCannotHoldIsRefusedAtTheShape() throws IOException {
        // rank 33 validated, then ended as the operator's ERROR; rank 40 aborted the JVM (a native overflow)
        String shape = String.join(", ", Collections.nCopies(33, "1"));
        Path file = spec("rank.yaml", "name: rank-33\nop: tanh\ninputs:\n  x: {shape: [" + shape + "]}\n");
        bothRefuse(file, "4:14", "shape has 33 dimensions; ND4J's arrays have at most 32");
    }

    @Test
    void jobsAndShardsBeyondTheirRangesAreUsageErrorsNamingTheOption() {
        // --jobs 2147483647: an OutOfMemoryError trace, exit 1 (or the kernel's OOM killer)
        Cli jobs = Cli.run("check", "--jobs", "2147483647", dir.toString());
        assertEquals(2, jobs.exit(), jobs.err());
        assertTrue(jobs.err().contains("'--jobs': must be between 1 and 256, got 2147483647"), jobs.err());
        Cli shard = Cli.run("check", "--shard", "1/100000", dir.toString());
        assertEquals(2, shard.exit(), shard.err());
        assertTrue(shard.err().contains("1 <= K <= N <= 1000"), shard.err());
        assertFalse((jobs.err() + shard.err()).contains("\tat "));
    }

    @Test
    void aMemoryBudgetHasOneRangeHoweverItIsWritten() {
        // 99999999999999999999 was taken (clamped) while 1EiB was refused
        Cli digits = Cli.run("check", "--in-process", "--max-memory", "99999999999999999999", "no-such-dir");
        assertEquals(2, digits.exit());
        assertTrue(digits.err().contains("'99999999999999999999' is not a size from 1 byte to under 8EiB"),
                digits.err());
        Cli exbi = Cli.run("check", "--in-process", "--max-memory", "1EiB", "no-such-dir");
        assertFalse(exbi.err().contains("--max-memory"), "1EiB is a size: " + exbi.err());
        Cli half = Cli.run("check", "--in-process", "--max-memory", "0.5", "no-such-dir");
        assertTrue(half.err().contains("not a size from 1 byte"), "half a byte is no budget: " + half.err());
    }

    @Test
    void aReportOfAbsurdlyManyShardsIsRefusedByMergeOnOneLine() throws IOException {
        // run.shard "1/2147483647" ran merge out of memory; "1/100000" printed 99,999 lines
        Path report = spec("shard.json", """
                {"schema": "gradcheck-report", "schema_version": 1, "tool": {"name": "gradcheck", "version": "0.1.0"},
                 "run": {"shard": "1/2147483647"},
                 "summary": {"total": 0, "exit_code": 0, "interrupted": false, "seconds": 1.5},
                 "checks": []}
                """);
        Cli r = Cli.run("merge", report.toString());
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().contains("run.shard: a shard is K/N with 1 <= K <= N <= 1000"), r.err());
        assertFalse(r.err().contains("\tat ") || r.err().contains("OutOfMemory"), r.err());

        Files.writeString(report, Files.readString(report).replace("1/2147483647", "1/1000"));
        Cli many = Cli.run("merge", report.toString());
        assertEquals(2, many.exit(), many.err());
        assertTrue(many.err().contains("shards 2-1000 of 1000 are missing (given: 1/1000)"), many.err());
        assertTrue(many.err().lines().count() < 5, "one line, not 999: " + many.err());
    }

    @Test
    void validateAndCheckAgreeOnABudgetTheCompressedCheckFits() throws IOException {
        // tanh [1000] at 1 MiB: validate exit 0, check INVALID "would need 15.3 MiB" (dense blocks), because the
        // compressed path was declined as not worth it where dense blocks did not fit at all
        Path file = spec("tanh.yaml", "name: tanh-1000\nop: tanh\ninputs:\n  x: {shape: [1000]}\n");
        Cli validate = Cli.run("validate", file.toString(), "--in-process", "--max-memory", "1m");
        Cli check = Cli.run("check", file.toString(), "--in-process", "--max-memory", "1m");
        assertEquals(0, validate.exit(), validate.out() + validate.err());
        assertEquals(0, check.exit(), check.out() + check.err());
    }

    @Test
    void validateAndCheckAgreeAtEveryBudgetAroundTheCompressedCheckFootprint() throws IOException {
        // tanh [1000]: validate weighs one thread's batch of compressed evaluations (250 KiB); the check on two
        // threads held two batches (262 KiB), so between the two validate said yes and check refused, naming the
        // dense blocks' 15.3 MiB. The check now holds as many threads' batches as fit.
        Path file = spec("tanh.yaml", "name: tanh-1000\nop: tanh\nmode: full\ninputs:\n  x: {shape: [1000]}\n");
        for (String budget : new String[] {"200k", "250k", "255k", "265k"}) {
            Cli validate = Cli.run("validate", file.toString(), "--in-process", "--max-memory", budget);
            Cli check = Cli.run("check", file.toString(), "--in-process", "--max-memory", budget, "--threads", "2");
            assertEquals(validate.exit(), check.exit(), budget + ": " + validate.err() + " / " + check.out()
                    + check.err());
        }
    }

    @Test
    void validateRefusesWhatTheCheckWouldRefuseBeforeItsTwoSidedRun() throws IOException {
        // softmax over 2000: every output depends on every input, so the pattern's entries alone need 30.5 MiB
        // (15.3 as floats); at 10 MiB validate said valid (it weighed one batch of evaluations) and check refused.
        // validate now probes the pattern as check does, and both refuse with the same reason.
        Path file = spec("softmax.yaml", "name: softmax-2000\nop: softmax\nattrs: {dimension: 0}\nmode: full\n"
                + "inputs:\n  x: {shape: [2000]}\n");
        Cli validate = Cli.run("validate", file.toString(), "--in-process", "--max-memory", "10m");
        Cli check = Cli.run("check", file.toString(), "--in-process", "--max-memory", "10m");
        assertEquals(2, validate.exit(), validate.out() + validate.err());
        assertEquals(2, check.exit(), check.out() + check.err());
        // and it says what the pattern holds: every entry of the 2000 x 2000 block, a float each (compactly)
        String reason = "its pattern's 4,000,000 entries (a float each and room for 1/32 of them exact, 100.0% of the"
                + " dense blocks) and one thread's evaluations would need 17.8 MiB";
        assertTrue(validate.out().contains(reason) || validate.err().contains(reason), validate.out() + validate.err());
        assertTrue(check.out().contains(reason) || check.err().contains(reason), check.out() + check.err());
    }
}
