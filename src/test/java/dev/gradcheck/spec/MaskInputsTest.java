package dev.gradcheck.spec;

import static dev.gradcheck.spec.SpecFiles.assertError;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The masks of layer and network specs ({@code mask}, {@code in_mask}, {@code labels_mask}): [batch, steps] of 0
 * and 1, every other mask INVALID at the input's file:line:col.
 */
class MaskInputsTest {

    @TempDir
    Path dir;

    SpecFiles files;

    @BeforeEach
    void setUp() {
        files = new SpecFiles(dir);
    }

    private static String network(String masks) {
        return "network: net.zip\ninputs:\n  x: {shape: [2, 3, 4]}\n  labels: {shape: [2, 2, 4]}\n" + masks;
    }

    @Test
    void zerosAndOnesOfTheInputsBatchAndStepsAreValid() {
        files.loadValid("n.yaml", network("  mask: {shape: [2, 4], init: {values: [[1, 1, 1, 1], [1, 1, 0, 0]]}}\n"
                + "  labels_mask: {shape: [2, 4], init: {constant: 1}}\n  x_mask: {shape: [2, 3], init: {constant: 0}}\n"));
        files.loadValid("l.yaml", "layer: {type: SimpleRnn, nOut: 2}\ninputs:\n  x: {shape: [2, 3, 4]}\n"
                + "  mask: {shape: [2, 4], init: {values: [[1, 1, 1, 1], [1, 0, 0, 0]]}}\n");
    }

    @Test
    void aMaskOtherThanZerosAndOnesIsInvalidAtTheInput() {
        List<SpecError> errors = files.loadErrors("n.yaml", network(
                "  mask: {shape: [2, 4], init: {values: [[1, 1, 1, 1], [1, 0.5, 0, 0]]}}\n"
                + "  labels_mask: {shape: [2, 4]}\n"));
        assertError(errors, 5, 3, "mask 'mask' holds 0.5: a mask holds 1 for a real step and 0 for padding");
        assertError(errors, 6, 3, "mask 'labels_mask' is drawn at random");
        assertEquals(2, errors.size(), () -> SpecFiles.render(errors));
    }

    @Test
    void aMaskOfAnotherShapeIsInvalidAtTheInput() {
        List<SpecError> errors = files.loadErrors("n.yaml", network(
                "  mask: {shape: [2, 5], init: {constant: 1}}\n  labels_mask: {shape: [2, 2, 4], init: {constant: 1}}\n"
                + "  x_mask: {shape: [3, 4], init: {constant: 1}}\n"));
        assertError(errors, 5, 3, "mask 'mask' has shape [2, 5]; masking 'x' [2, 3, 4] it is [batch, steps]: [2, 4"
                + " (or 3 in NWC)]");
        assertError(errors, 6, 3, "mask 'labels_mask' has shape [2, 2, 4]; masking 'labels' [2, 2, 4]");
        assertError(errors, 7, 3, "mask 'x_mask' has shape [3, 4]");
        List<SpecError> layer = files.loadErrors("l.yaml", "layer: {type: LSTM, nOut: 2}\ninputs:\n"
                + "  x: {shape: [2, 3, 4]}\n  mask: {shape: [2, 3, 4], init: {constant: 1}}\n");
        assertError(layer, 4, 3, "mask 'mask' has shape [2, 3, 4]");
    }

    @Test
    void anOpsInputNamedMaskIsNoMask() {
        files.loadValid("o.yaml", "op: add\ninputs:\n  x: {shape: [2]}\n  mask: {shape: [2]}\n");
    }
}
