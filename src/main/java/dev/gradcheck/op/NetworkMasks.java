package dev.gradcheck.op;

import dev.gradcheck.spec.InputSpec;
import dev.gradcheck.spec.InputValues;
import dev.gradcheck.spec.InvalidSpecException;
import dev.gradcheck.spec.OpSpec;
import java.util.List;
import java.util.Optional;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * A network spec's masks, as DL4J's {@code setLayerMaskArrays} takes them: a features mask per network input
 * ([batch, steps], 1 for a real step, 0 for padding) and a labels mask. A network of one input takes its mask as
 * the input {@code mask}; a graph's input {@code in} as {@code in_mask}; the labels' as {@code labels_mask}. None
 * is ever checked; DL4J hands each layer the mask it sees (a recurrent layer the features mask, a dense layer
 * after a time-series preprocessor the same reshaped, the output layer the labels mask, or the features mask
 * when no labels mask is given).
 *
 * @param features one per network input, in the network's order; null where that input has none
 * @param labels   the labels mask, or null
 */
record NetworkMasks(INDArray[] features, INDArray labels) {

    /** A network's one input's mask. */
    static final String MASK = LayerSpecs.MASK;
    /** The labels' mask. */
    static final String LABELS_MASK = LayerSpecs.LABELS + "_mask";
    private static final String SUFFIX = "_mask";

    /** Whether an input of a network spec is a mask rather than a value the network takes. */
    static boolean isMask(String name) {
        return name.equals(MASK) || name.endsWith(SUFFIX);
    }

    /**
     * The masks a network spec gives for a network with these inputs: a mask whose input the network does not take
     * is INVALID at it.
     */
    static NetworkMasks of(OpSpec spec, List<String> inputs) throws InvalidSpecException {
        INDArray[] features = new INDArray[inputs.size()];
        for (InputSpec in : spec.inputs()) {
            if (!isMask(in.name()) || in.name().equals(LABELS_MASK)) {
                continue;
            }
            String masked = in.name().equals(MASK) ? null : in.name().substring(0, in.name().length()
                    - SUFFIX.length());
            int index = masked == null && inputs.size() == 1 ? 0 : inputs.indexOf(masked);
            if (index < 0) {
                throw new InvalidSpecException(in.pos(), "input '" + in.name() + "' masks no input of the network"
                        + " (its inputs: " + String.join(", ", inputs) + "; a network of one input takes 'mask', a"
                        + " graph's input 'in' takes 'in_mask', the labels 'labels_mask')");
            }
            features[index] = drawn(in, spec);
        }
        Optional<InputSpec> labels = spec.inputs().stream().filter(i -> i.name().equals(LABELS_MASK)).findFirst();
        if (labels.isPresent() && spec.inputs().stream().noneMatch(i -> i.name().equals(LayerSpecs.LABELS))) {
            throw new InvalidSpecException(labels.get().pos(), "'" + LABELS_MASK + "' masks the labels, and the"
                    + " spec gives none: add the input 'labels'");
        }
        return new NetworkMasks(features, labels.map(l -> drawn(l, spec)).orElse(null));
    }

    /**
     * The input a network of one input takes: the first written that is neither the labels nor a mask (a graph's
     * inputs are found by their names).
     */
    static InputSpec networkInput(OpSpec spec) throws InvalidSpecException {
        return spec.inputs().stream().filter(i -> !isMask(i.name()) && !i.name().equals(LayerSpecs.LABELS))
                .findFirst().orElseThrow(() -> new InvalidSpecException(spec.pos(), "a network spec takes the"
                        + " network's input"));
    }

    /**
     * The masks set on the network's layers, as DL4J sets them before a forward pass (each layer's its own, after
     * the preprocessors and vertices before it). Set again before every pass: DL4J clears them after one.
     */
    void setOn(org.deeplearning4j.nn.api.Model net) {
        if (net instanceof ComputationGraph graph) {
            graph.setLayerMaskArrays(any(features) ? features : null, labels == null ? null
                    : new INDArray[] {labels});
        } else {
            ((MultiLayerNetwork) net).setLayerMaskArrays(features[0], labels);
        }
    }

    /** " with masks mask [2, 4], ...", to say what the network was given besides its inputs; "" without. */
    String described() {
        List<String> parts = new java.util.ArrayList<>();
        for (INDArray f : features) {
            if (f != null) {
                parts.add(java.util.Arrays.toString(f.shape()));
            }
        }
        if (labels != null) {
            parts.add(LABELS_MASK + " " + java.util.Arrays.toString(labels.shape()));
        }
        return parts.isEmpty() ? "" : " with masks " + String.join(", ", parts);
    }

    private static boolean any(INDArray[] masks) {
        return java.util.Arrays.stream(masks).anyMatch(java.util.Objects::nonNull);
    }

    /** An input's values as the spec's seed draws them, in its dtype. */
    static INDArray drawn(InputSpec in, OpSpec spec) {
        return Nd4j.create(InputValues.generate(in, spec.seed()), in.shape()).castTo(Nd4jTypes.of(in.dtype()));
    }
}
