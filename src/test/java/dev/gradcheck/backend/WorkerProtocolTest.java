package dev.gradcheck.backend;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.result.BackendDifference;
import dev.gradcheck.result.BackendSample;
import dev.gradcheck.result.CheckKind;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.GradientResult;
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
