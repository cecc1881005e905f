package dev.gradcheck.backend;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.result.BackendDifference;
import dev.gradcheck.result.BackendSample;
import dev.gradcheck.result.BlockJacobians;
import dev.gradcheck.result.CheckKind;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.EntryRegion;
import dev.gradcheck.result.EntrySet;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.result.JacobianCapture;
import dev.gradcheck.result.Mismatches;
import dev.gradcheck.result.Sampling;
import dev.gradcheck.result.Status;
import dev.gradcheck.result.Verdict;
import dev.gradcheck.result.WorstElement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WorkerProtocolTest {

    @Test
    void aResultCrossesIntactNaNAndInfinityIncluded() {
        GradientResult g = new GradientResult("0", "x", CheckKind.JACOBIAN, 1, Verdict.NON_FINITE, Double.NaN,
                Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY,
                new WorstElement(new long[] {1, 2}, new long[] {}, Double.NaN, 0.5), 36, 0.25, "a note", null);
        CheckResult sent = new CheckResult("s", "f.yaml:1:1", "log", "cpu", "float32", Status.FAILED, "fail",
                "known", "two\nlines", List.of(g), "max_relative_error=0.01", 1e-3, 1.5)
                .withCrossBackend(new BackendDifference("cpu", 1e-7, 2e-7, "0[1]", 3e-7, Double.NaN, "x[0]"));
        String line = WorkerProtocol.encode(new WorkerProtocol.Reply(9, sent, null));
        assertTrue(!line.contains("\n"), "one line per message: " + line);
        CheckResult got = WorkerProtocol.decode(line, WorkerProtocol.Reply.class).result();
        assertEquals(sent.name(), got.name());
        assertEquals(Status.FAILED, got.status());
        assertEquals("two\nlines", got.message());
        GradientResult back = got.gradients().get(0);
        assertEquals(Verdict.NON_FINITE, back.verdict());
        assertEquals("a note", back.note(), "fields other issues added travel too");
        assertTrue(Double.isNaN(back.maxAbsError()));
        assertEquals(Double.POSITIVE_INFINITY, back.maxRelError());
        assertEquals(Double.NEGATIVE_INFINITY, back.maxScore());
        assertArrayEquals(new long[] {1, 2}, back.worst().outputIndex());
        assertEquals(0.5, back.worst().numerical());
        assertEquals("x[0]", got.crossBackend().worstGradient());
        assertTrue(Double.isNaN(got.crossBackend().maxGradientRel()));
    }

    @Test
    void aBlocksMatricesAndMismatchesCrossWhenTheRunAskedForThem() {
        BlockJacobians j = new BlockJacobians(new long[] {4, 2}, new long[] {2}, null, new int[] {1},
                new double[][] {{1}, {Double.NaN}}, new double[][] {{0}, {Double.NEGATIVE_INFINITY}},
                new String[] {"X", "."});
        Mismatches m = new Mismatches(6, 16, 2, new EntryRegion(List.of("1-3", "i"), List.of("i"), true),
                List.of(new WorstElement(new long[] {1, 0}, new long[] {0}, 0, 1)),
                new EntrySet(2, new EntryRegion(List.of("0", "i"), List.of("i"), true)), new EntrySet(8, null));
        GradientResult g = new GradientResult("y", "b", CheckKind.JACOBIAN, 1, Verdict.MISMATCH, 1, 1, 1e6,
                null, 20, 0.1, null, new Sampling(1, 2, 8, 8, List.of(new long[] {1}), List.of(new long[] {0, 1})))
                .withDiagnosis(m, j);
        CheckResult sent = new CheckResult("s", "f.yaml:1:1", "lin", "cpu", "float64", Status.FAILED, "pass", null,
                null, List.of(g), "max_relative_error=1e-06", 1e-6, 1.5).withDefaultedAttributes(List.of("alpha"));
        CheckResult got = WorkerProtocol.decode(WorkerProtocol.encode(new WorkerProtocol.Reply(1, sent, null)),
                WorkerProtocol.Reply.class).result();
        GradientResult back = got.gradients().get(0);
        assertEquals(m.region(), back.mismatches().region());
        assertEquals(6, back.mismatches().count());
        assertEquals(2, back.mismatches().masked());
        assertEquals(8, back.mismatches().numericalNonzero().count());
        assertArrayEquals(new long[] {1, 0}, back.mismatches().worst().get(0).outputIndex());
        assertArrayEquals(new long[] {4, 2}, back.jacobians().outputShape());
        assertNull(back.jacobians().rows());
        assertArrayEquals(new int[] {1}, back.jacobians().cols());
        assertTrue(Double.isNaN(back.jacobians().numerical()[1][0]));
        assertEquals(Double.NEGATIVE_INFINITY, back.jacobians().analytic()[1][0]);
        assertEquals(BlockJacobians.MISMATCH, back.jacobians().mark(0, 0));
        assertArrayEquals(new long[] {0, 1}, back.sampling().outputPositions().get(0));
        assertEquals(List.of("alpha"), got.defaultedAttributes());
    }

    @Test
    void theRequestSaysWhichMatricesToShip() {
        WorkerProtocol.Request request = new WorkerProtocol.Request(4, "a.yaml", "a.yaml:1:1",
                WorkerProtocol.Request.Kind.CHECK, null, JacobianCapture.FAILING);
        assertEquals(JacobianCapture.FAILING, WorkerProtocol.decode(WorkerProtocol.encode(request),
                WorkerProtocol.Request.class).jacobians());
        WorkerProtocol.Request older = WorkerProtocol.decode("{\"id\":4,\"file\":\"a.yaml\",\"location\":"
                + "\"a.yaml:1:1\",\"kind\":\"CHECK\"}", WorkerProtocol.Request.class);
        assertNull(older.jacobians(), "a front end that does not ask gets none (CheckRequest reads null as NONE)");
    }

    @Test
    void aSampleCrossesWhole() {
        BackendSample sample = new BackendSample(Map.of("0", new double[] {1, Double.NaN}),
                Map.of("x", new double[] {-0.5}));
        WorkerProtocol.Reply back = WorkerProtocol.decode(
                WorkerProtocol.encode(new WorkerProtocol.Reply(3, null, sample)), WorkerProtocol.Reply.class);
        assertArrayEquals(new double[] {1, Double.NaN}, back.sample().outputs().get("0"));
        assertArrayEquals(new double[] {-0.5}, back.sample().gradients().get("x"));
        assertNull(back.result());
    }

    @Test
    void framesAreFoundBehindNativeNoiseAndNoiseIsNotAFrame() {
        assertEquals("{\"id\":1}", WorkerProtocol.unframe("partial printf" + WorkerProtocol.FRAME + "{\"id\":1}"));
        assertNull(WorkerProtocol.unframe("Added differentiated op tanh"));
    }
}
