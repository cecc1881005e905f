package dev.gradcheck.check.full;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gradcheck.check.Specs;
import dev.gradcheck.check.colouring.CompressedJacobiansTest;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.result.Status;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The rows' evaluations add up to what the check made (issue 34): a backward pass serves every input's block of its
 * output and a column every output's block of its input, so each is counted in one row, on every path of full mode.
 * The calls the function saw are the rows' evaluations: the forward at x every check makes first is the input
 * mutation row's, and the forward at x the determinism row owes after its forward elsewhere is that row's where the
 * mode's first call paid it (a backward: the compressed paths) and made by no one where a forward came first (dense,
 * fast). Fast mode's one backward pass is determinism's first, handed over: counted in the fast row alone.
 */
class EvaluationsAddUpTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "dense blocks (compress: false)|8|compress: false",
        "one side compressed|8|",
        "both sides compressed|64|",
        "both sides compressed, larger|96|",
        "fast mode: its one backward pass is determinism's first, handed over|8|mode: fast",
        "fast mode, larger|96|mode: fast"})
    void theRowsEvaluationsAreTheCallsTheFunctionSaw(String path, int n, String extra) {
        String yaml = """
                op: matmul
                inputs:
                  a: {shape: [%d, %d], init: {uniform: [-2, 2]}}
                  b: {shape: [%d, %d], init: {uniform: [-2, 2]}}
                """.formatted(n, n + 2, n + 2, n - 2) + (extra == null ? "" : extra + "\n");
        CheckResult r = CompressedJacobiansTest.check(yaml, f -> f);
        assertEquals(Status.PASSED, r.status(), r.message());
        long rows = r.gradients().stream().mapToLong(GradientResult::evaluations).sum();
        assertEquals(r.calls().forward() + r.calls().backward(), rows, path + ": " + r.calls() + ", rows "
                + r.gradients().stream().map(g -> g.kind() + " " + g.input() + " " + g.evaluations()).toList());
    }
}
