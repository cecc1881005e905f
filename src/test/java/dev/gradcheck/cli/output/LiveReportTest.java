package dev.gradcheck.cli.output;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.cli.term.LiveTable;
import dev.gradcheck.cli.term.ProgressLine;
import dev.gradcheck.cli.term.Screen;
import dev.gradcheck.report.ReportContext;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.Engine;
import dev.gradcheck.result.Status;
import dev.gradcheck.result.Summary;
import dev.gradcheck.run.PlannedCheck;
import dev.gradcheck.spec.LoadedSpec;
import dev.gradcheck.spec.SpecLoader;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The live report: rows in spec order as checks finish, and the status line on a terminal. */
class LiveReportTest {

    private static final String SPECS = """
            name: first
            op: tanh
            inputs: {x: {shape: [2]}}
            ---
            name: second-with-a-long-name
            op: softmax
            attrs: {dimension: 1}
            inputs: {logits: {shape: [2, 3]}}
            ---
            name: third
            op: sigmoid
            inputs: {x: {shape: [2]}}
            """;

    @Test
    void rowsComeInSpecOrderAsSoonAsEveryRowBeforeThemFinished() {
        StringWriter out = new StringWriter();
        LiveTable table = new LiveTable(planned(), new ReportContext(false, "t"), new PrintWriter(out));
        table.finished(2, result("third", Status.PASSED));
        assertEquals("", out.toString(), "the third waits for the first two");
        table.finished(0, result("first", Status.PASSED));
        List<String> lines = out.toString().lines().toList();
        assertEquals(2, lines.size(), out.toString());
        assertTrue(lines.get(0).startsWith("STATUS") && lines.get(1).contains("first"), out.toString());
        table.finished(1, result("second-with-a-long-name", Status.FAILED));
        lines = out.toString().lines().toList();
        assertTrue(lines.get(2).contains("second-with-a-long-name") && lines.get(3).contains("third"),
                out.toString());
        assertEquals(lines.get(0).indexOf("OP"), lines.get(3).indexOf("tanh"),
                "columns planned from the specs line up without knowing the results");
    }

    @Test
    void anInterruptedRunStillWritesTheRowsThatFinishedPastAGap() {
        StringWriter out = new StringWriter();
        LiveTable table = new LiveTable(planned(), new ReportContext(false, "t"), new PrintWriter(out));
        CheckResult first = result("first", Status.PASSED);
        CheckResult third = result("third", Status.PASSED);
        table.finished(0, first);
        table.finished(2, third); // the second never ends: Ctrl-C
        List<CheckResult> finished = List.of(first, third);
        table.end(finished, Summary.of(finished, 1.0, 130), new ReportContext(false, "t", false, true));
        String text = out.toString();
        assertTrue(text.contains("third") && text.endsWith("2 checks: 2 passed, 0 failed (1.00 s), interrupted\n"),
                text);
        assertEquals(1, text.lines().filter(l -> l.contains("first")).count(), "no row twice");
    }

    @Test
    void quietWritesOnlyWhatNeedsAttention() {
        StringWriter out = new StringWriter();
        LiveTable table = new LiveTable(planned(), new ReportContext(false, "t", true), new PrintWriter(out));
        List<CheckResult> all = List.of(result("first", Status.PASSED), result("second-with-a-long-name",
                Status.FAILED), result("third", Status.PASSED));
        for (int i = 0; i < all.size(); i++) {
            table.finished(i, all.get(i));
        }
        table.end(all, Summary.of(all, 1.0, 1), new ReportContext(false, "t", true));
        assertFalse(out.toString().contains("first") || out.toString().contains("third"), out.toString());
        assertTrue(out.toString().contains("second-with-a-long-name"), out.toString());
    }

    @Test
    void theStatusLineCountsEstimatesAndNamesTheCheckUnderWay() {
        AtomicLong now = new AtomicLong();
        StringWriter err = new StringWriter();
        Screen screen = new Screen(new PrintWriter(new StringWriter()), new PrintWriter(err), true, () -> 200, true);
        ProgressLine line = new ProgressLine(screen, now::get, false);
        List<PlannedCheck> plan = planned();
        line.runStarted(plan);
        assertEquals("0/3 checks, 0 failed, 0 s elapsed, estimating the time left", line.text());
        line.checkStarted(0, plan.get(0).spec(), Engine.CPU);
        now.set(5_000_000_000L); // the first check carries the worker's start-up
        line.checkFinished(0, result("first", Status.PASSED));
        line.checkStarted(1, plan.get(1).spec(), Engine.CPU);
        now.set(7_000_000_000L);
        line.checkFinished(1, result("second-with-a-long-name", Status.FAILED));
        assertEquals("2/3 checks, 1 failed, 7 s elapsed, estimating the time left: second-with-a-long-name",
                line.text());
        line.checkStarted(2, plan.get(2).spec(), Engine.CPU);
        now.set(8_000_000_000L);
        line.checkFinished(2, result("third", Status.ERROR));
        assertEquals("3/3 checks, 1 failed, 1 error, 8 s elapsed", line.text());
        assertTrue(err.toString().contains("\r\u001b[K0/3 checks"), "drawn in place: " + err);
    }

    @Test
    void theEstimateLeavesTheFirstChecksStartUpOut() {
        AtomicLong now = new AtomicLong();
        Screen screen = new Screen(new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()), true,
                () -> 200, true);
        ProgressLine line = new ProgressLine(screen, now::get, false);
        List<PlannedCheck> plan = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            plan.add(new PlannedCheck(i, "c" + i, Engine.CPU, planned().get(0).spec()));
        }
        line.runStarted(plan);
        line.checkStarted(0, plan.get(0).spec(), Engine.CPU);
        now.set(10_000_000_000L); // 10 s: a worker started
        for (int i = 0; i < 4; i++) {
            line.checkFinished(i, result("c" + i, Status.PASSED));
            now.addAndGet(1_000_000_000L); // then 1 s per check
        }
        now.addAndGet(-1_000_000_000L);
        assertTrue(line.text().contains("about 6 s left"), "6 checks at 1 s: " + line.text());
    }

    @Test
    void everyOtherWriteErasesTheStatusLineFirstAndDrawsItAgainAfter() {
        StringWriter err = new StringWriter();
        StringWriter out = new StringWriter();
        Screen screen = new Screen(new PrintWriter(out), new PrintWriter(err), true, () -> 30, true);
        screen.status("1/3 checks, 0 failed, a status longer than the terminal is wide");
        screen.err().println("gradcheck: a notice");
        String e = err.toString();
        assertTrue(e.startsWith("\r\u001b[K1/3 checks, 0 failed, a stat…"), "cut to the width: " + e);
        assertTrue(e.contains("\r\u001b[Kgradcheck: a notice\n\r\u001b[K1/3 checks"), e);
        screen.endStatus();
        assertTrue(err.toString().endsWith("\r\u001b[K"), "the finished screen keeps no status line");
        screen.err().println("after");
        assertTrue(err.toString().endsWith("\r\u001b[Kafter\n"), err.toString());
    }

    private static List<PlannedCheck> planned() {
        List<LoadedSpec> specs = new SpecLoader().loadText("live.yaml", "live", SPECS);
        List<PlannedCheck> plan = new ArrayList<>();
        for (int i = 0; i < specs.size(); i++) {
            plan.add(new PlannedCheck(i, specs.get(i).name(), Engine.CPU, specs.get(i).spec()));
        }
        return plan;
    }

    private static CheckResult result(String name, Status status) {
        return new CheckResult(name, "live.yaml:1:1", "tanh", "cpu", "float64", status, "pass", null,
                status == Status.ERROR ? "threw" : null, List.of(), "max_relative_error=1e-06", 1e-6, 0.01);
    }
}
