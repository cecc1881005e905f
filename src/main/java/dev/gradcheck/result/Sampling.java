package dev.gradcheck.result;

import java.util.List;

/**
 * How much of a Jacobian block a sampled check ({@code max_elements}) compared: these many of the input's
 * elements (columns) against these many of the output's (rows), and which ones.
 *
 * @param inputPositions  the multi-indices of the input elements compared, in row-major order
 * @param outputPositions the multi-indices of the output elements compared, in row-major order
 */
public record Sampling(int inputChecked, long inputTotal, int outputChecked, long outputTotal,
                       List<long[]> inputPositions, List<long[]> outputPositions) {

    public Sampling {
        inputPositions = inputPositions == null ? List.of() : List.copyOf(inputPositions);
        outputPositions = outputPositions == null ? List.of() : List.copyOf(outputPositions);
    }

    /** The counts alone (rows read from reports written before positions were recorded). */
    public Sampling(int inputChecked, long inputTotal, int outputChecked, long outputTotal) {
        this(inputChecked, inputTotal, outputChecked, outputTotal, List.of(), List.of());
    }
}
