package dev.gradcheck.op;

import dev.gradcheck.op.catalog.AffineInputs;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * A function under check, built once and evaluated many times: the checker never rebuilds a graph per evaluation.
 * Inputs and outputs are named; the arrays passed in are copied into the function, so callers may keep
 * perturbing their own.
 */
public interface Differentiable extends AutoCloseable {

    /** Input names, in the op's argument order. */
    List<String> inputNames();

    /** Output names, in the op's output order. */
    List<String> outputNames();

    /** Evaluates every output at the given input values; the returned arrays belong to the caller. */
    Map<String, INDArray> forward(Map<String, INDArray> inputs);

    /**
     * The analytic vector-Jacobian product: gradients of {@code Σ_k sum(cotangent_k ⊙ output_k)} with respect to
     * each input in {@code wrt}. An input the backward gives no gradient to is absent from the result.
     */
    Map<String, INDArray> vjp(Map<String, INDArray> inputs, Map<String, INDArray> cotangents, List<String> wrt);

    /**
     * {@link #forward} for a caller that reads the outputs at once and keeps none: they may be the function's own
     * arrays, valid only until its next call. Saves the copy per output that {@link #forward} hands its caller,
     * which for a small op costs more than the op (a numerical Jacobian makes 2n forwards). By default a forward.
     */
    default Map<String, INDArray> forwardTransient(Map<String, INDArray> inputs) {
        return forward(inputs);
    }

    /** {@link #vjp} for a caller that reads the gradients at once, as {@link #forwardTransient} for the forward. */
    default Map<String, INDArray> vjpTransient(Map<String, INDArray> inputs, Map<String, INDArray> cotangents,
                                               List<String> wrt) {
        return vjp(inputs, cotangents, wrt);
    }

    /**
     * The inputs whose copy inside the function the last {@link #forward} changed (an in-place op). Functions that
     * keep no copy of their inputs have nothing to report.
     */
    default List<String> inputsChangedByForward(Map<String, INDArray> inputs) {
        return List.of();
    }

    /**
     * This function's backward as a function of its own, for second-order checks: its inputs are this function's
     * inputs plus one cotangent per output in {@code outputs} (named {@link #cotangentName}), its outputs the
     * gradients of the inputs in {@code wrt} (named {@link #gradientName}), and its {@link #vjp} is the double
     * backward. The returned function takes this one over: close that one only.
     *
     * @throws UnsupportedOperationException when there is no differentiable backward, saying why
     */
    default Differentiable backwardFunction(List<String> wrt, List<String> outputs) {
        throw new UnsupportedOperationException("only one-op ND4J specs can be differentiated twice so far");
    }

    /**
     * The op's attributes the spec left out, so the op's own defaults apply: a report on a failing check names
     * them, since a forward and a backward that default one differently disagree (elu's alpha: 1 in the forward
     * kernel, 0 in the backward). Graph nodes as {@code "h1: alpha"}. Empty when none or not known.
     */
    default List<String> attributesLeftAtDefault() {
        return List.of();
    }

    /**
     * What the code under test did to the arrays it was handed, since this function was built: a plugin's forward
     * that changed its inputs, a backward that changed its inputs, outputs or output gradients. Each change once,
     * as a sentence; empty when there was none (or nothing is watched: ND4J ops run on copies of their own).
     */
    default List<String> argumentsChanged() {
        return List.of();
    }

    // Capabilities: what some functions can do beyond forward and backward. Each is asked for, never assumed from
    // a class, so a wrapper (a test's deliberately wrong backward, a perturbed engine) can pass them on or not.

    /** A forward-mode derivative (JVP) to check beside the backward; empty when the function has none. */
    default Optional<ForwardMode> forwardMode() {
        return Optional.empty();
    }

    /** Present when the backward clips gradients, so the numerical reference must be split at the clips. */
    default Optional<ClippedGraph> clippedGraph() {
        return Optional.empty();
    }

    /** Present when the function is a graph of nodes that can each be checked on their own. */
    default Optional<NodeCapture> nodeCapture() {
        return Optional.empty();
    }

    /**
     * The bytes its outputs will take, known before it first runs (an ND4J build asks the ops' shape functions), so
     * that an output too big for the memory budget is refused before it is allocated; empty when not known.
     */
    default java.util.OptionalLong plannedOutputBytes() {
        return java.util.OptionalLong.empty();
    }

    /**
     * The inputs this function's forward is affine in by its op's definition ({@link AffineInputs}: a one-op ND4J
     * build of a convolution or a matrix product), along which the checker may take a near entry's finite
     * difference at a larger step, guarded by the data; {@link AffineInputs#NONE} for everything else.
     */
    default AffineInputs affineInputs() {
        return AffineInputs.NONE;
    }

    /**
     * What this instance's calls were measured to take in earlier checks ({@link CallSizes}), kept with it where it
     * serves check after check (a {@link FunctionCache}'s lent function); empty where it serves one check.
     */
    default Optional<CallSizes> callSizes() {
        return Optional.empty();
    }

    /**
     * An independent instance of this function, equal in every result and sharing no mutable state with it, so that
     * two threads can evaluate the same function at once (one instance each).
     *
     * @throws UnsupportedOperationException where this function cannot be copied
     */
    default Differentiable copy() {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " cannot be copied");
    }

    /**
     * How many instances {@link #copy} can hand out at once without building one: idle builds of the same spec
     * that a {@link FunctionCache} kept from earlier checks. A check's helper threads start at once when their
     * copies cost nothing, and only once the work has run long enough to earn a build otherwise.
     */
    default int readyCopies() {
        return 0;
    }

    static String gradientName(String input) {
        return "grad_" + input;
    }

    static String cotangentName(String output) {
        return "v_" + output;
    }

    @Override
    default void close() {}
}
