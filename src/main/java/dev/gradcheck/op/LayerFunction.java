package dev.gradcheck.op;

import dev.gradcheck.spec.InputSpec;
import dev.gradcheck.spec.InvalidSpecException;
import dev.gradcheck.spec.OpSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.deeplearning4j.nn.api.Layer;
import org.deeplearning4j.nn.gradient.Gradient;
import org.deeplearning4j.nn.workspace.LayerWorkspaceMgr;
import org.nd4j.common.primitives.Pair;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.deeplearning4j.nn.api.layers.IOutputLayer;

/**
 * A DL4J layer as a function of its input and its trainable parameters: the forward is the layer's
 * {@code activate}, the backward its hand-written {@code backpropGradient}, handed the cotangent as the epsilon
 * a network would hand it. Each call first writes the parameters it is given into the layer's parameter view, so
 * the checker's perturbed parameters are what the layer computes with.
 */
final class LayerFunction implements Differentiable {

    /** The layer's one output: its activations. */
    static final String OUTPUT = "out";
    /** An output layer's one output: its score, the loss averaged over the batch as DL4J computes it. */
    static final String SCORE = "score";

    private final OpSpec spec;
    private final Map<String, INDArray> builtOn;
    private final ClassLoader loader;
    private final Layer layer;
    private final String input;
    private final List<String> params;
    private final LayerWorkspaceMgr workspaces = LayerWorkspaceMgr.noWorkspaces();
    private final SameDiffSessions sessions;

    private LayerFunction(OpSpec spec, Map<String, INDArray> builtOn, ClassLoader loader, LayerBuild build,
                          String input) {
        this.spec = spec;
        this.builtOn = builtOn;
        this.loader = loader;
        this.layer = build.layer();
        this.input = input;
        this.params = build.trainable();
        this.sessions = SameDiffSessions.of(layer);
    }

    /**
     * The layer of a layer spec, over the inputs drawn for it (its activations and its parameters, which
     * {@link LayerSpecs} made inputs), run once: what DL4J refuses to build or run is INVALID at the layer's type,
     * with DL4J's reason, unless the spec expects an error: then DL4J's exception, as it came.
     */
    static LayerFunction build(OpSpec spec, Map<String, INDArray> inputs, ClassLoader loader)
            throws InvalidSpecException {
        OpSpec expanded = LayerSpecs.expand(spec, loader);
        InputSpec in = LayerSpecs.layerInput(expanded);
        LayerBuild build = LayerBuild.of(expanded.layer(), inputs.get(in.name()), expanded.seed(), loader);
        LayerFunction f = new LayerFunction(expanded, inputs, loader, build, in.name());
        Map<String, INDArray> copies = new LinkedHashMap<>();
        inputs.forEach((name, x) -> copies.put(name, x.dup()));
        try {
            f.forward(copies);
        } catch (RuntimeException e) {
            if (spec.expect().kind() == dev.gradcheck.spec.Expectation.Kind.ERROR) {
                throw e; // the failure is what the spec records (a layer DL4J cannot run), as for an op
            }
            throw new InvalidSpecException(expanded.layer().type().pos(), "DL4J's " + spec.op().value()
                    + " rejects an input of shape " + java.util.Arrays.toString(inputs.get(in.name()).shape())
                    + ": " + GraphBuilder.firstLine(e));
        }
        return f;
    }

    @Override
    public List<String> inputNames() {
        List<String> names = new ArrayList<>();
        names.add(input);
        names.addAll(params);
        return names;
    }

    @Override
    public List<String> outputNames() {
        return List.of(layer instanceof IOutputLayer ? SCORE : OUTPUT);
    }

    @Override
    public Map<String, INDArray> forward(Map<String, INDArray> inputs) {
        try {
            return forwardKeepingSessions(inputs);
        } finally {
            sessions.release(layer);
        }
    }

    private Map<String, INDArray> forwardKeepingSessions(Map<String, INDArray> inputs) {
        load(inputs);
        if (layer instanceof IOutputLayer output) {
            double score = output.computeScore(0, spec.layer().training(), workspaces);
            return Map.of(SCORE, Nd4j.scalar(inputs.get(input).dataType(), score).reshape(1));
        }
        INDArray out = layer.activate(inputs.get(input).dup(), spec.layer().training(), workspaces);
        return Map.of(OUTPUT, out.dup());
    }

    /**
     * The forward again (DL4J's backward reads what its forward kept), then the layer's backpropGradient. A
     * SameDiff-defined layer's sessions are dropped after each call, forward or backward ({@link SameDiffSessions}).
     */
    @Override
    public Map<String, INDArray> vjp(Map<String, INDArray> inputs, Map<String, INDArray> cotangents,
                                     List<String> wrt) {
        try {
            return vjpKeepingSessions(inputs, cotangents, wrt);
        } finally {
            sessions.release(layer);
        }
    }

    private Map<String, INDArray> vjpKeepingSessions(Map<String, INDArray> inputs, Map<String, INDArray> cotangents,
                                                     List<String> wrt) {
        load(inputs);
        boolean loss = layer instanceof IOutputLayer;
        if (!loss) {
            layer.activate(inputs.get(input).dup(), spec.layer().training(), workspaces);
        }
        // an output layer's backward is the gradient of its loss summed over the batch: it takes no epsilon, and a
        // network's updater divides what it gives by the batch size (DL4J's GradientCheckUtil too) before use
        Pair<Gradient, INDArray> back = layer.backpropGradient(loss ? null : cotangents.get(OUTPUT).dup(),
                workspaces);
        double scale = loss ? cotangents.get(SCORE).getDouble(0) / inputs.get(input).size(0) : 1;
        Map<String, INDArray> grads = new LinkedHashMap<>();
        for (String name : wrt) {
            INDArray g = name.equals(input) ? back.getSecond() : back.getFirst().getGradientFor(name);
            if (g != null) {
                grads.put(name, g.mul(scale));
            }
        }
        return grads;
    }

    /**
     * The given parameters into the layer's own view (those not given keep the values DL4J initialised); an
     * output layer's input and labels too, which its score and backward read, and a mask.
     */
    private void load(Map<String, INDArray> inputs) {
        INDArray mask = inputs.get(LayerSpecs.MASK);
        if (mask != null) { // DL4J's activate and backward read the mask the layer holds, as a network sets it
            layer.setMaskArray(mask.dup());
        }
        if (layer instanceof IOutputLayer output) {
            layer.setInput(inputs.get(input).dup(), workspaces);
            output.setLabels(inputs.get(LayerSpecs.LABELS).dup());
        }
        for (String p : params) {
            INDArray value = inputs.get(p);
            if (value != null) {
                layer.getParam(p).assign(value);
            }
        }
    }

    @Override
    public Differentiable copy() {
        try {
            return build(spec, builtOn, loader);
        } catch (InvalidSpecException e) {
            throw new IllegalStateException("a layer built once could not be built again", e);
        }
    }
}
