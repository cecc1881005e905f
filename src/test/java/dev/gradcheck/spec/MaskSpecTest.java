package dev.gradcheck.spec;

import static dev.gradcheck.spec.SpecFiles.assertError;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code mask:} and {@code sample_seed:}: what they read as, and every bad value at its file:line:col. */
class MaskSpecTest {

    @TempDir
    Path dir;

    SpecFiles files;

    @BeforeEach
    void setUp() {
        files = new SpecFiles(dir);
    }

    private static String spec(String mask) {
        return """
                op: matmul
                inputs:
                  x: {shape: [2, 3]}
                  y: {shape: [3, 4]}
                  i: {shape: [2], dtype: int32, init: {values: [0, 1]}}
                mask:
                """ + mask;
    }

    @Test
    void elementsRowsAndEntriesAreRead() {
        OpSpec s = files.loadValid("m.yaml", spec("""
                  - x[0, 1]
                  - y[{0, 2}, 1-3]
                  - out[1, :]
                  - out[i, :] / x[i, 2]
                """));
        List<JacobianMask.Rule> rules = s.options().mask().rules();
        assertEquals(4, rules.size());
        JacobianMask.Rule column = rules.get(0);
        assertNull(column.output(), "an input's element: every output's entries for it");
        assertEquals("x", column.input().name());
        assertTrue(column.concerns("0", "x") && !column.concerns("0", "y"));
        assertTrue(column.covers(new long[] {1, 3}, new long[] {0, 1}));
        assertFalse(column.covers(new long[] {1, 3}, new long[] {1, 1}));
        JacobianMask.Rule set = rules.get(1);
        assertTrue(set.covers(null, new long[] {2, 3}) && !set.covers(null, new long[] {1, 2})
                && !set.covers(null, new long[] {0, 0}), "{0, 2} on axis 0, 1 to 3 inclusive on axis 1");
        JacobianMask.Rule row = rules.get(2);
        assertNull(row.input(), "an output's element: its entries for every input");
        assertTrue(row.concerns("0", "x") && row.concerns("1", "y"), "out names every numbered output");
        assertTrue(row.covers(new long[] {1, 3}, null) && !row.covers(new long[] {0, 3}, null));
        JacobianMask.Rule tied = rules.get(3);
        assertTrue(tied.covers(new long[] {1, 0}, new long[] {1, 2}), "out[1, *] / x[1, 2]");
        assertFalse(tied.covers(new long[] {0, 0}, new long[] {1, 2}), "the letter ties the two axes");
        assertEquals(7, files.loadValid("s.yaml", "op: tanh\nsample_seed: 7\ninputs:\n  x: {shape: [3]}\n")
                .options().sampleSeed());
        assertNull(files.loadValid("d.yaml", "op: tanh\ninputs:\n  x: {shape: [3]}\n").options().sampleSeed(),
                "left out: the sample follows seed");
    }

    @Test
    void everyBadEntryIsReportedAtItsPosition() {
        List<SpecError> errors = files.loadErrors("bad.yaml", spec("""
                  - out[0, 1] / w[0]
                  - x[0]
                  - x[2, 0]
                  - x[0, 5-3]
                  - x[a, 0]
                  - i[0]
                  - x[0, 1] / out[0]
                  - 3
                  - x[0, 1
                  - x[0,, 1]
                """));
        assertError(errors, 7, 5, "mask[0] 'out[0, 1] / w[0]': no input 'w' (did you mean 'x'?); inputs: x, y, i");
        assertError(errors, 8, 5, "x has shape [2, 3]: give 2 indices, one per axis, not 1");
        assertError(errors, 9, 5, "index 2 is outside axis 0 of x (length 2)");
        assertError(errors, 10, 5, "range 5-3 runs backwards (write 3-5)");
        assertError(errors, 11, 5, "a letter ties an output axis to an input axis");
        assertError(errors, 12, 5, "input 'i' is not checked");
        assertError(errors, 13, 5, "the output element comes first");
        assertError(errors, 14, 5, "expected a string for 'mask[7]', got integer 3");
        assertError(errors, 15, 5, "does not end with ']'");
        assertError(errors, 16, 5, "'' is not an index");
        assertEquals(10, errors.size(), () -> String.join("\n", errors.stream().map(SpecError::toString).toList()));
    }

    @Test
    void maskMustBeAListAndSampleSeedAnInteger() {
        List<SpecError> errors = files.loadErrors("types.yaml", """
                op: tanh
                sample_seed: 1.5
                mask: x[0]
                inputs:
                  x: {shape: [3]}
                """);
        assertError(errors, 2, 14, "expected an integer for 'sample_seed'");
        assertError(errors, 3, 7, "expected a list for 'mask'");
    }
}
