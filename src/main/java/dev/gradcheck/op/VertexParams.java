package dev.gradcheck.op;

import dev.gradcheck.spec.InputSpec;
import dev.gradcheck.spec.Init;
import dev.gradcheck.spec.InvalidSpecException;
import dev.gradcheck.spec.OpSpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.deeplearning4j.nn.conf.graph.FrozenVertex;
import org.deeplearning4j.nn.conf.graph.GraphVertex;
import org.deeplearning4j.nn.conf.layers.samediff.SDVertexParams;
import org.deeplearning4j.nn.conf.layers.samediff.SameDiffVertex;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * The parameters of a vertex that has some (DL4J's SameDiff-defined vertices: AttentionVertex's Wq, Wk, Wv, Wo) as a
 * vertex spec's inputs, as a layer's are ({@link LayerSpecs}): each's values as DL4J initialises them under the
 * spec's seed unless an input of its name gives them (a network's own values), each checked unless no_grad names it.
 * A FrozenVertex's are not trained (DL4J's updater for it is a no-op), so they are inputs and never checked.
 */
final class VertexParams {

    private VertexParams() {}

    /** The vertex's parameters by name: a SameDiff-defined vertex's (frozen or not); none for DL4J's others. */
    static List<String> names(GraphVertex conf) {
        GraphVertex inner = conf instanceof FrozenVertex frozen ? frozen.getUnderlying() : conf;
        if (!(inner instanceof SameDiffVertex vertex)) {
            return List.of();
        }
        SDVertexParams params = new SDVertexParams();
        vertex.defineParametersAndInputs(params);
        return List.copyOf(params.getParameterKeys());
    }

    /** The spec with the vertex's parameters as inputs, checked (unless frozen) as a layer's are. */
    static OpSpec expand(OpSpec spec, GraphVertex conf, List<String> fixed) throws InvalidSpecException {
        List<String> names = names(conf);
        VertexFunction.Wiring wiring = VertexFunction.Wiring.of(spec, fixed, names);
        if (wiring.fed().isEmpty()) {
            throw new InvalidSpecException(spec.pos(), "a vertex spec feeds the vertex its inputs: none given");
        }
        InputSpec first = spec.input(wiring.fed().get(0));
        Map<String, INDArray> initial;
        try {
            initial = VertexFunction.paramsOf(VertexFunction.graphOf(spec, conf, wiring, Nd4jTypes.of(first.dtype())));
        } catch (RuntimeException e) {
            throw new InvalidSpecException(spec.layer().type().pos(), "DL4J cannot initialise the parameters of "
                    + spec.op().value() + ": " + GraphBuilder.firstLine(e));
        }
        List<InputSpec> inputs = new ArrayList<>(spec.inputs());
        for (String p : names) {
            INDArray v = initial.get(p);
            Optional<InputSpec> given = spec.inputs().stream().filter(i -> i.name().equals(p)).findFirst();
            if (given.isPresent() && !Arrays.equals(given.get().shape(), v.shape())) {
                throw new InvalidSpecException(given.get().pos(), "input '" + p + "' gives parameter " + p + " of "
                        + spec.op().value() + " the shape " + Arrays.toString(given.get().shape()) + "; DL4J's is "
                        + Arrays.toString(v.shape()));
            }
            if (given.isEmpty()) {
                inputs.add(new InputSpec(p, v.shape(), first.dtype(), new Init.Values(v.dup('c')
                        .castTo(DataType.DOUBLE).data().asDouble()), spec.layer().type().pos()));
            }
        }
        List<String> trained = conf instanceof FrozenVertex ? List.of() : names;
        return spec.withLayerParameters(inputs, checked(spec, trained, names, fixed), noGrad(spec, trained,
                concat(fixed, names)), names);
    }

    /** What a layer spec checks, less the fixed inputs and the parameters not trained. */
    private static List<String> checked(OpSpec spec, List<String> trained, List<String> names, List<String> fixed)
            throws InvalidSpecException {
        List<String> check = new ArrayList<>(LayerSpecs.checked(spec, trained));
        check.removeIf(n -> fixed.contains(n) || names.contains(n) && !trained.contains(n));
        return check;
    }

    /** What a layer spec leaves unchecked, and every fixed input and parameter not trained. */
    private static List<String> noGrad(OpSpec spec, List<String> trained, List<String> unchecked)
            throws InvalidSpecException {
        List<String> noGrad = new ArrayList<>(LayerSpecs.noGrad(spec, trained));
        unchecked.stream().filter(n -> !trained.contains(n) && !noGrad.contains(n)).forEach(noGrad::add);
        return noGrad;
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> both = new ArrayList<>(a);
        both.addAll(b);
        return both;
    }
}
