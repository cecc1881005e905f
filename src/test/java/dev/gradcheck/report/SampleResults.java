package dev.gradcheck.report;

import dev.gradcheck.cli.options.ExitCode;
import dev.gradcheck.result.BackendDifference;
import dev.gradcheck.result.CheckKind;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.EntryRegion;
import dev.gradcheck.result.EntrySet;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.result.Mismatches;
import dev.gradcheck.result.NodeFinding;
import dev.gradcheck.result.Sampling;
import dev.gradcheck.result.Status;
import dev.gradcheck.result.Summary;
import dev.gradcheck.result.Verdict;
import dev.gradcheck.result.WorstElement;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;

/**
 * A fixed batch covering every {@link Status} and every {@link Verdict}, plus the awkward cases: a NaN and an
 * infinite error, a multi-gradient spec, a named graph output, a scalar index, null reason/message/tolerance.
 * Changing it changes the goldens: regenerate them (see {@link ReportGoldenTest}) and review the diff.
 */
final class SampleResults {

    static final String VERSION = "0.1.0-test";
    static final double BATCH_SECONDS = 4.2149;
    static final String MAX_REL = "max_relative_error=1e-06";

    private SampleResults() {}

    static List<CheckResult> all() {
        return List.of(
                passedSingle(), passedMulti(), failedMismatch(), failedZeroGradient(), failedNaN(), failedModes(),
                expectedFail(), unexpectedPass(), error(), expectedError(), invalid(), crashed(), timedOut(),
                skippedOnCuda(), passedOnCudaBesideCpu());
    }

    static Summary summary() {
        return Summary.of(all(), BATCH_SECONDS, ExitCode.of(all()));
    }

    /** Shard 2/3 of a run on a named host at a fixed time; each check's id from its location and name. */
    static ReportContext context(boolean color) {
        return new ReportContext(color, VERSION).with(details());
    }

    static final String SHARD = "2/3";

    static RunDetails details() {
        return new RunDetails(OffsetDateTime.of(2024, 5, 1, 14, 3, 7, 0, ZoneOffset.ofHours(2)), "ci-runner-1",
                SHARD, 0, false, r -> new RunDetails.CheckOrigin(JUnitRenderer.file(r.location()) + "::" + r.name(),
                        SHARD), List.of());
    }

    private static CheckResult passedSingle() {
        return check("tanh-basic", "specs/tanh.yaml:1:1", "tanh", "float64", Status.PASSED, "pass", null, null,
                List.of(grad("0", "x", Verdict.PASS, 3.2e-10, 1.234e-9, 1.234e-3,
                        worst(new long[] {2, 1}, new long[] {2, 1}, 0.41997434161402614, 0.4199743412))),
                        MAX_REL, 0.0123);
    }

    /** Two inputs, both passing; the worst block is the second one; the spec's mask left two entries out. */
    private static CheckResult passedMulti() {
        return check("matmul-2x3x4", "specs/linalg.yaml:12:1", "matmul", "float32", Status.PASSED, "pass", null,
                null,
                List.of(grad("0", "a", Verdict.PASS, 1e-7, 2e-7, 0.2,
                                worst(new long[] {0, 0}, new long[] {0, 1}, 1.5, 1.4999998))
                                .withDiagnosis(new Mismatches(0, 46, 2, null, List.of(), null, null), null),
                        grad("0", "b", Verdict.PASS, 3e-7, 4.5e-7, 0.45,
                                worst(new long[] {1, 3}, new long[] {2, 3}, -0.75, -0.7499997))),
                "atol=1e-05, rtol=0.001", 1.5e-3);
    }

    /**
     * One of three blocks mismatches: only that one gets a detail line, with how many entries mismatch and where
     * (rows 1-3, on a tie of axes), the worst three, and where each side is nonzero; an attribute was left out.
     */
    private static CheckResult failedMismatch() {
        return check("softmax-rows", "specs/softmax.yaml:1:1", "softmax", "float64", Status.FAILED, "pass", null,
                null,
                List.of(grad("0", "x", Verdict.PASS, 1e-11, 2e-11, 2e-5,
                                worst(new long[] {0, 0}, new long[] {0, 0}, 0.1, 0.1))
                                .withDiagnosis(new Mismatches(0, 784, 0, null, List.of(), null, null), null),
                        grad("0", "w", Verdict.MISMATCH, 0.25, 0.2, 200000.0,
                                worst(new long[] {1, 2}, new long[] {0, 3}, 0.5, 0.25))
                                .withDiagnosis(new Mismatches(6, 16, 0,
                                        new EntryRegion(List.of("1-3", "i"), List.of("0", "i"), true),
                                        List.of(worst(new long[] {1, 2}, new long[] {0, 3}, 0.5, 0.25),
                                                worst(new long[] {2, 2}, new long[] {0, 3}, 0.5, 0.25),
                                                worst(new long[] {1, 3}, new long[] {0, 4}, 0.0, 0.25)),
                                        new EntrySet(2, new EntryRegion(List.of("0", "i"), List.of("0", "i"), true)),
                                        new EntrySet(8, new EntryRegion(List.of(":", "i"), List.of("0", "i"), true))),
                                        null),
                        grad("1", "x", Verdict.PASS, 1e-12, 1e-12, 1e-6,
                                worst(new long[] {3}, new long[] {3, 6}, 2.0, 2.0))),
                MAX_REL, 0.0871).withDefaultedAttributes(List.of("dimension"));
    }

    /**
     * A graph whose output is named: the worst element reads y[...] rather than out[...]; scalar input index.
     * Its nodes were checked on their own: one passes, one mismatches, one could not be built alone.
     */
    private static CheckResult failedZeroGradient() {
        return check("mlp-clip", "specs/graphs/mlp.yaml:4:1", "graph", "float64", Status.FAILED, "pass", null, null,
                List.of(grad("y", "bias", Verdict.ZERO_GRADIENT, 0.3125, 0.3125, 312500.0,
                        worst(new long[] {0, 1}, new long[] {}, 0.0, -0.3125))),
                MAX_REL, 0.2045).withNodes(List.of(
                        new NodeFinding(1, "matmul", "h1", "specs/graphs/mlp.yaml:6:5", Status.PASSED,
                                grad("h1", "x", Verdict.PASS, 1e-11, 2e-11, 2e-5,
                                        worst(new long[] {0, 0}, new long[] {0, 0}, 0.1, 0.1)), null),
                        new NodeFinding(2, "cumsum", "h2", "specs/graphs/mlp.yaml:7:5", Status.FAILED,
                                grad("h2", "h1", Verdict.MISMATCH, 0.5, 0.5, 500000.0,
                                        worst(new long[] {1, 0}, new long[] {0, 0}, 1.0, 0.5)), null),
                        new NodeFinding(3, "add", "y", "specs/graphs/mlp.yaml:8:5", Status.ERROR, null,
                                "operator threw IllegalStateException: no kernel\n  at forward")), 0.3001);
    }

    /** The op's backward produced NaN: errors are NaN / infinite and must print as such in both formats. */
    private static CheckResult failedNaN() {
        return check("log-near-zero", "specs/log.yaml:9:1", "log", "float32", Status.FAILED, "pass", null, null,
                List.of(grad("0", "x", Verdict.NON_FINITE, Double.NaN, Double.POSITIVE_INFINITY,
                        Double.POSITIVE_INFINITY, worst(new long[] {0}, new long[] {0}, Double.NaN, 1.0e6))),
                MAX_REL, 0.003);
    }

    /**
     * The rows the checking modes add: a fast-mode failure rechecked in full, a sampled block, kinks left out, a
     * held and a broken sanity check, an order-2 block and a Hessian-vector product.
     */
    private static CheckResult failedModes() {
        return check("abs-order2", "specs/modes.yaml:1:1", "abs", "float64", Status.FAILED, "pass", null, null,
                List.of(new GradientResult("0", "x", CheckKind.JACOBIAN, 1, Verdict.MISMATCH, 0.5, 0.5, 500000.0,
                                worst(new long[] {1}, new long[] {1}, 1.5, 1.0), 40, 0.01,
                                "fast mode mismatch (v'Ju analytic 0.7, numerical 0.2); rechecked in full",
                                new Sampling(8, 64, 8, 64, positions(1, 5, 9, 20, 33, 41, 50, 63),
                                        positions(0, 1, 5, 9, 13, 20, 33, 63)))
                                .withDiagnosis(new Mismatches(1, 64, 0,
                                        new EntryRegion(List.of("1"), List.of("1"), true),
                                        List.of(worst(new long[] {1}, new long[] {1}, 1.5, 1.0)), null, null), null),
                        new GradientResult("0", "y", CheckKind.FAST, 1, Verdict.PASS, 1e-10, 1e-10, 1e-4,
                                worst(new long[] {}, new long[] {}, 0.25, 0.25), 3, 0.001, null, null),
                        new GradientResult("0", "z", CheckKind.JACOBIAN, 1, Verdict.NONDIFFERENTIABLE, 1e-11, 1e-11,
                                1e-5, worst(new long[] {0}, new long[] {2}, 1.0, 1.0), 24, 0.002,
                                "1 of 4 elements of z sit at a nondifferentiable point (e.g. z[0]) and were left out",
                                null),
                        new GradientResult("*", "*", CheckKind.ZERO_GRAD, 1, Verdict.PASS, 0, 0, 0, null, 1, 0.001,
                                null, null),
                        new GradientResult("*", "x", CheckKind.DETERMINISM, 1, Verdict.NONDETERMINISTIC,
                                Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY, null, 2,
                                0.001, "two runs of the backward gave x[3] = 0.5 and 0.5000001 (nondet_tol 0.0)", null),
                        new GradientResult("grad_x", "v_0", CheckKind.JACOBIAN, 2, Verdict.MISMATCH, 0.1, 0.1,
                                100000.0, worst(new long[] {2}, new long[] {2}, 1.1, 1.0), 30, 0.02, null, null),
                        new GradientResult("Hw", "x", CheckKind.HVP, 2, Verdict.PASS, 1e-9, 1e-9, 1e-3,
                                worst(new long[] {}, new long[] {0}, 0.0, 0.0), 3, 0.003, null, null)),
                MAX_REL, 0.05);
    }

    private static CheckResult expectedFail() {
        return check("cumsum-reverse", "specs/cumsum.yaml:20:1", "cumsum", "float64", Status.EXPECTED_FAIL, "fail",
                "cumsum_bp ignores reverse=true (issue 42)", null,
                List.of(grad("0", "x", Verdict.MISMATCH, 2.0, 1.0, 1.0e6,
                        worst(new long[] {4}, new long[] {0}, 1.0, -1.0))),
                MAX_REL, 0.0158);
    }

    private static CheckResult unexpectedPass() {
        return check("cumprod-exclusive", "specs/cumsum.yaml:40:1", "cumprod", "float64", Status.UNEXPECTED_PASS,
                "fail", "cumprod_bp wrong for exclusive=true",
                null,
                List.of(grad("0", "x", Verdict.PASS, 4e-11, 5e-11, 5e-5,
                        worst(new long[] {1}, new long[] {1}, 3.0, 3.0))),
                MAX_REL, 0.0112);
    }

    /**
     * With what the engine printed meanwhile: the native line is in the message already, the log line is not, and
     * comes twice (as ND4J logs some errors): the table shows it once, the JSON log as printed.
     */
    private static CheckResult error() {
        return check("conv2d-nchw", "specs/conv.yaml:1:1", "conv2d", "float32", Status.ERROR, "pass", null,
                "operator threw IllegalStateException: Op [conv2d] failed check for input [0]\n"
                        + "  at backward pass, input w\n"
                        + "libnd4j: CONV2D OP: wrong shape of weights array, expected [3, 3, 2, 4] (conv2d.cpp:60)",
                List.of(), MAX_REL, 1.5).withLog(List.of(
                        "Error at [/home/runner/work/libnd4j/include/ops/declarable/generic/nn/convo/conv2d.cpp:60:0]:",
                        "CONV2D OP: wrong shape of weights array, expected [3, 3, 2, 4]",
                        "ERROR NativeOpExecutioner - Failed to execute op conv2d. Attempted to execute with 2 inputs,"
                                + " 1 outputs, 0 targs, 0 bargs and 10 iargs. Inputs: [(FLOAT,[1,2,5,5],c),"
                                + " (FLOAT,[3,3,3,4],c)] - Please see above message (printed out from c++) for a"
                                + " possible cause of error.",
                        "ERROR NativeOpExecutioner - Failed to execute op conv2d. Attempted to execute with 2 inputs,"
                                + " 1 outputs, 0 targs, 0 bargs and 10 iargs. Inputs: [(FLOAT,[1,2,5,5],c),"
                                + " (FLOAT,[3,3,3,4],c)] - Please see above message (printed out from c++) for a"
                                + " possible cause of error."));
    }

    private static CheckResult expectedError() {
        return check("lstm-bf16", "specs/rnn.yaml:3:1", "lstmLayer", "bfloat16", Status.EXPECTED_ERROR, "error",
                "no bfloat16 kernel on cpu", "unsupported dtype BFLOAT16 for lstmLayer", List.of(), MAX_REL, 0.0421);
    }

    /** Unreadable spec: no op, no dtype, no tolerance (null), two problems in the message. */
    private static CheckResult invalid() {
        return check("bad", "specs/bad.yaml:1:1", "", "", Status.INVALID, "pass", null,
                "specs/bad.yaml:3:12: unknown dtype 'float8'\nspecs/bad.yaml:7:3: 'tolerance' needs a rule",
                List.of(), null, 0.0);
    }

    /** The worker died: the message names the signal and ends with the worker's last stderr lines. */
    private static CheckResult crashed() {
        return check("strided-slice-neg", "specs/slice.yaml:30:1", "strided_slice", "float64", Status.CRASHED,
                "pass", null, "worker crashed: killed by signal 6 (SIGABRT)\nlast worker output:\n"
                        + "  malloc(): unaligned tcache chunk detected",
                List.of(), MAX_REL, 2.25);
    }

    private static CheckResult timedOut() {
        return check("conv3d-big", "specs/conv.yaml:40:1", "conv3d", "float64", Status.TIMEOUT, "pass", null,
                "timed out after 120 s (timeout: in the spec, or --timeout)", List.of(), MAX_REL, 120.0);
    }

    /** Another backend: the table names it beside the spec. */
    private static CheckResult skippedOnCuda() {
        return new CheckResult("tanh-basic", "specs/tanh.yaml:1:1", "tanh", "cuda", "float64", Status.SKIPPED, "pass",
                null, "cuda: no CUDA device (nvidia-smi lists none)", List.of(), MAX_REL, 1.0e-6, 0.0);
    }

    /** --backend all: the second backend's row carries its difference from the first's. */
    private static CheckResult passedOnCudaBesideCpu() {
        return new CheckResult("matmul-2x3x4", "specs/linalg.yaml:12:1", "matmul", "cuda", "float32", Status.PASSED,
                "pass", null, null, List.of(grad("0", "a", Verdict.PASS, 2e-7, 3e-7, 0.3,
                        worst(new long[] {0, 0}, new long[] {0, 1}, 1.5, 1.4999997))), "atol=1e-05, rtol=0.001",
                1.0e-3, 0.0311).withCrossBackend(new BackendDifference("cpu", 2.384185791015625e-7,
                        1.1920928955078125e-7, "0[5]", 4.76837158203125e-7, 2.384185791015625e-7, "b[7]"));
    }

    private static CheckResult check(String name, String location, String op, String dtype, Status status,
            String expected, String reason, String message, List<GradientResult> gradients, String tolerance,
            double seconds) {
        return new CheckResult(name, location, op, "cpu", dtype, status, expected, reason, message, gradients,
                tolerance, 1.0e-6, seconds);
    }

    private static GradientResult grad(String output, String input, Verdict verdict, double abs, double rel,
            double score, WorstElement worst) {
        return new GradientResult(output, input, CheckKind.JACOBIAN, 1, verdict, abs, rel, score, worst, 2L * 12 + 12,
                0.0042, null, null);
    }

    private static List<long[]> positions(long... flat) {
        return java.util.Arrays.stream(flat).mapToObj(i -> new long[] {i}).toList();
    }

    private static WorstElement worst(long[] out, long[] in, double analytic, double numerical) {
        return new WorstElement(out, in, analytic, numerical);
    }
}
