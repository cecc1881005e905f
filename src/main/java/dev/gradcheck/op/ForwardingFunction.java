package dev.gradcheck.op;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * A function that passes every call, capabilities included, to another: the base of wrappers that watch or count
 * calls without changing them (a lent function, a bench's counter). A subclass overrides what it watches; a method
 * added to {@link Differentiable} is passed on here once. {@link #copy} is not passed on: a copy of the wrapped
 * function alone would compute without the wrapper (a wrapper that changes a result would lose its change on another
 * thread), so a subclass that can be copied says how, and one that does not runs on one thread.
 */
public abstract class ForwardingFunction implements Differentiable {

    protected final Differentiable f;

    protected ForwardingFunction(Differentiable f) {
        this.f = f;
    }

    @Override
    public List<String> inputNames() {
        return f.inputNames();
    }

    @Override
    public List<String> outputNames() {
        return f.outputNames();
    }

    @Override
    public Map<String, INDArray> forward(Map<String, INDArray> inputs) {
        return f.forward(inputs);
    }

    @Override
    public Map<String, INDArray> vjp(Map<String, INDArray> inputs, Map<String, INDArray> cotangents,
                                     List<String> wrt) {
        return f.vjp(inputs, cotangents, wrt);
    }

    @Override
    public Map<String, INDArray> forwardTransient(Map<String, INDArray> inputs) {
        return f.forwardTransient(inputs);
    }

    @Override
    public Map<String, INDArray> vjpTransient(Map<String, INDArray> inputs, Map<String, INDArray> cotangents,
                                              List<String> wrt) {
        return f.vjpTransient(inputs, cotangents, wrt);
    }

    @Override
    public List<String> inputsChangedByForward(Map<String, INDArray> inputs) {
        return f.inputsChangedByForward(inputs);
    }

    @Override
    public Differentiable backwardFunction(List<String> wrt, List<String> outputs) {
        return f.backwardFunction(wrt, outputs);
    }

    @Override
    public Optional<ForwardMode> forwardMode() {
        return f.forwardMode();
    }

    @Override
    public Optional<ClippedGraph> clippedGraph() {
        return f.clippedGraph();
    }

    @Override
    public Optional<NodeCapture> nodeCapture() {
        return f.nodeCapture();
    }

    @Override
    public List<String> attributesLeftAtDefault() {
        return f.attributesLeftAtDefault();
    }

    @Override
    public List<String> argumentsChanged() {
        return f.argumentsChanged();
    }

    @Override
    public java.util.OptionalLong plannedOutputBytes() {
        return f.plannedOutputBytes();
    }

    @Override
    public Differentiable copy() {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " does not say how to copy itself");
    }

    @Override
    public void close() {
        f.close();
    }
}
