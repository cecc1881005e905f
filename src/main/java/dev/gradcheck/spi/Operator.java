package dev.gradcheck.spi;

import java.util.List;
import java.util.Map;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * A custom operator that gradcheck can check: its forward pass and the backward pass it claims is the forward's
 * gradient. gradcheck differentiates the forward numerically (central differences, in float64) and compares the
 * result with what {@link #backward} returns, exactly as it does for ND4J's own ops.
 *
 * <p>As a plugin, an implementation is a public class with a public no-argument constructor, listed in its jar's
 * (or directory's) {@code META-INF/services/dev.gradcheck.spi.Operator}, and loaded with
 * {@code gradcheck check --plugin PATH}. From a Java test it is passed to {@code dev.gradcheck.api.GradCheck.of(operator)} directly.
 *
 * <p>An operator must leave the arrays it is handed as they are: gradcheck passes copies and compares them with the
 * originals after each call, and a change fails the check (a caller sharing them would see it). A backward must
 * read the outputs it is given, not outputs kept from its last forward call: gradcheck does not run the forward
 * right before every backward. An operator is called from one thread at a time and may be called many times with
 * the same inputs.
 */
public interface Operator {

    /** The name a spec's {@code op:} uses; it must not be an ND4J op's name or another plugin's. */
    String name();

    /** Input names: the keys of a spec's {@code inputs} and of the maps passed in. */
    List<String> inputNames();

    /** Output names: the keys {@link #forward} returns, which a spec's {@code output} may name. */
    List<String> outputNames();

    /** Attribute names a spec's {@code attrs} may set; any other attribute is a spec error. None by default. */
    default List<String> attributeNames() {
        return List.of();
    }

    /**
     * Evaluates every output.
     *
     * @param inputs one array per input name, in the dtype and shape the spec (or test) gave
     * @param attrs  the spec's attributes: Long, Double, Boolean, String, or a List of those; absent when not set
     * @return one array per output name; a missing output or a shape that changes between calls is an error
     */
    Map<String, INDArray> forward(Map<String, INDArray> inputs, Map<String, Object> attrs);

    /**
     * The vector-Jacobian product: given the gradient of some scalar loss with respect to each output, the
     * gradient of that loss with respect to each input.
     *
     * @param inputs          the inputs, as for {@link #forward}
     * @param outputs         what {@link #forward} returned for those inputs
     * @param outputGradients dL/d output, one array per floating output, each in its output's shape
     * @param attrs           the attributes, as for {@link #forward}
     * @return dL/d input for each input, in that input's shape; a missing or null entry means the backward gives
     *         that input no gradient (gradcheck then reports a zero gradient if the forward depends on it)
     */
    Map<String, INDArray> backward(Map<String, INDArray> inputs, Map<String, INDArray> outputs,
                                   Map<String, INDArray> outputGradients, Map<String, Object> attrs);

    /**
     * Whether the op works on complex numbers, each given as a pair of real arrays named {@code NAME.re} and
     * {@code NAME.im} (other names stay real). gradcheck then requires every pair to be complete and of one shape
     * and dtype, and checks the real and imaginary parts of each output separately. The backward must follow
     * PyTorch's convention: the gradient of a complex input is 2·∂L/∂z* = ∂L/∂re + i·∂L/∂im, and the output
     * gradients it receives are given the same way (docs/plugins.md works an example).
     */
    default boolean complex() {
        return false;
    }

    /** Whether {@link #jvp} is implemented; when it is, gradcheck checks it against the numerical J·u too. */
    default boolean hasJvp() {
        return false;
    }

    /**
     * Forward mode, optional: the Jacobian-vector product J·t, each output's derivative along the input tangents.
     *
     * @param inputs   the inputs, as for {@link #forward}
     * @param tangents one array per floating input, in its shape (zero for inputs not being perturbed)
     * @param attrs    the attributes, as for {@link #forward}
     * @return one array per floating output, in that output's shape
     */
    default Map<String, INDArray> jvp(Map<String, INDArray> inputs, Map<String, INDArray> tangents,
                                      Map<String, Object> attrs) {
        throw new UnsupportedOperationException(name() + " has no jvp");
    }
}
