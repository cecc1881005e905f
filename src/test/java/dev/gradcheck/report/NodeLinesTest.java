package dev.gradcheck.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gradcheck.result.CheckKind;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.result.NodeFinding;
import dev.gradcheck.result.Status;
import dev.gradcheck.result.Verdict;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The table's per-node lines under a failing graph. */
class NodeLinesTest {

    private static NodeFinding node(int number, String op, String out, Status status, Verdict verdict) {
        GradientResult g = verdict == null ? null
                : new GradientResult(out, "x", CheckKind.JACOBIAN, 1, verdict, 0.25, 1.5, 1.5e6, null, 10,
                        0.001, null, null);
        return new NodeFinding(number, op, out, "g.yaml:" + (number + 2) + ":5", status, g, null);
    }

    @Test
    void onlyWrongNodesAreListedByNumberOpAndOut() {
        List<String> lines = NodeLines.of(List.of(
                node(1, "tanh", "h1", Status.PASSED, Verdict.PASS),
                node(3, "cumsum", "h2", Status.FAILED, Verdict.MISMATCH)));
        assertEquals(List.of("node 3 (cumsum, out=h2): backward mismatch, max rel err 1.50e+00, max abs err"
                + " 2.50e-01 (dh2/dx)"), lines);
    }

    @Test
    void whenEveryNodeAgreesAloneTheLineSaysTheCombinationIsWrong() {
        List<String> lines = NodeLines.of(List.of(node(1, "tanh", "h1", Status.PASSED, Verdict.PASS),
                node(2, "add", "y", Status.PASSED, Verdict.PASS)));
        assertEquals(1, lines.size());
        assertEquals("every node's own backward agrees (2 checked on their own): the mismatch is in how the graph"
                + " combines them (summed paths or clips)", lines.get(0));
    }

    /** A network's FrozenLayer is skipped with its reason: not wrong, and listed last, under a pass too. */
    @Test
    void aSkippedNodeIsListedWithItsReasonAndIsNotWrong() {
        NodeFinding frozen = new NodeFinding(0, "FrozenLayer", "frozen", "g.yaml:1:1", Status.SKIPPED, null,
                "not checked: no gradient by design");
        List<String> lines = NodeLines.of(List.of(frozen, node(3, "cumsum", "h2", Status.FAILED, Verdict.MISMATCH)));
        assertEquals(2, lines.size());
        assertEquals("node 0 (FrozenLayer, out=frozen): skipped: not checked: no gradient by design", lines.get(1));
        assertEquals(List.of(lines.get(1)), NodeLines.skipped(List.of(frozen, node(1, "tanh", "h1", Status.PASSED,
                Verdict.PASS))));
        org.junit.jupiter.api.Assertions.assertFalse(frozen.wrong());
    }

    @Test
    void noFindingsNoLines() {
        assertEquals(List.of(), NodeLines.of(List.of()));
    }
}
