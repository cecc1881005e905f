package dev.gradcheck.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** What Java prints on a thread running a check in this JVM is that check's, and shown only where asked. */
class EngineOutputTest {

    @AfterEach
    void hideAgain() {
        EngineOutput.showTo(null);
    }

    @Test
    void aCheckKeepsWhatItsThreadPrintedAndNothingElse() throws InterruptedException {
        CappedLines<String> printed = new CappedLines<>();
        Thread other = new Thread(() -> System.err.println("another thread's line"));
        String result = EngineOutput.capture(() -> {
            System.out.println("WARN DifferentialFunction - No fields found for property name dimensions");
            System.err.print("Labels plus eps: ");
            System.err.println("[0.000001, 1.000001]");
            System.out.println(EngineOutput.CHATTER + "grad");
            System.out.println();
            other.start();
            try {
                other.join();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            System.err.print("no newline at the end");
            return "done";
        }, printed);
        assertEquals("done", result);
        assertEquals(List.of("WARN DifferentialFunction - No fields found for property name dimensions",
                "Labels plus eps: [0.000001, 1.000001]", "no newline at the end"),
                printed.lines(CappedLines::droppedLine));
    }

    @Test
    void capturedLinesAreShownOnlyWhereAsked() {
        List<String> shown = new CopyOnWriteArrayList<>();
        EngineOutput.capture(() -> {
            System.out.println("quiet");
            return null;
        }, new CappedLines<>());
        EngineOutput.showTo(shown::add);
        CappedLines<String> printed = new CappedLines<>();
        EngineOutput.capture(() -> {
            System.out.println("verbose");
            return null;
        }, printed);
        assertEquals(List.of("verbose"), printed.lines(CappedLines::droppedLine));
        assertEquals(List.of("verbose"), shown);
        EngineOutput.show(EngineOutput.CHATTER + "x");
        EngineOutput.show("   ");
        assertTrue(shown.size() == 1, shown.toString());
    }

    @Test
    void aCheckInThisJvmKeepsItsFirstAndLastLinesAndSaysHowManyWereDropped() {
        CappedLines<String> printed = new CappedLines<>();
        EngineOutput.capture(() -> {
            for (int i = 1; i <= 10_000; i++) {
                System.out.println("line " + i);
            }
            System.out.println("x".repeat(CappedLines.MAX_CHARS + 5));
            return null;
        }, printed);
        List<String> log = printed.lines(CappedLines::droppedLine);
        assertEquals(CappedLines.HEAD + 1 + CappedLines.TAIL, log.size());
        assertEquals("line 1", log.get(0));
        assertEquals(CappedLines.droppedLine(10_001 - CappedLines.HEAD - CappedLines.TAIL), log.get(CappedLines.HEAD));
        assertEquals("line 10000", log.get(log.size() - 2));
        assertEquals("x".repeat(CappedLines.MAX_CHARS) + " [gradcheck: 5 characters cut]", log.get(log.size() - 1));
    }
}
