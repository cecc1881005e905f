package dev.gradcheck.op;

import dev.gradcheck.op.catalog.AffineInputs;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * A function that passes every call, capabilities included, to another: the base of wrappers that watch or count
 * calls without changing them (a lent function, a bench's counter). A subclass overrides what it watches; a method
 * added to {@link Differentiable} is passed on here once (ForwardingFunctionTest fails until it is).
 *
 * <p>{@link #copy} and {@link #readyCopies} are decided together, here, not passed on: a copy of the wrapped
 * function alone would compute without the wrapper (a wrapper that changes a result would lose its change on another
 * thread), and a wrapper that cannot copy itself has no copies at hand, whatever the wrapped function has. A
 * subclass that is copied by wrapping a copy of {@code f} says how ({@link #ForwardingFunction(Differentiable,
 * UnaryOperator)}) and has f's copies at hand; one that says nothing runs on one thread; one that makes its copies
 * another way overrides both.
 */
public abstract class ForwardingFunction implements Differentiable {

    protected final Differentiable f;
    /** This wrapper around a copy of {@code f}; null when this wrapper cannot be copied. */
    private final UnaryOperator<Differentiable> rewrap;

    /** A wrapper that cannot be copied ({@link #copy} throws, {@link #readyCopies} is 0): it runs on one thread. */
    protected ForwardingFunction(Differentiable f) {
        this(f, null);
    }

    /**
     * @param rewrap the same wrapper around a copy of {@code f}: {@link #copy} is {@code rewrap(f.copy())}, so the
     *               copies at hand are f's
     */
    protected ForwardingFunction(Differentiable f, UnaryOperator<Differentiable> rewrap) {
        this.f = f;
        this.rewrap = rewrap;
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
    public AffineInputs affineInputs() {
        return f.affineInputs();
    }

    @Override
    public Optional<CallSizes> callSizes() {
        return f.callSizes();
    }

    @Override
    public Differentiable copy() {
        if (rewrap == null) {
            throw new UnsupportedOperationException(getClass().getSimpleName() + " does not say how to copy itself");
        }
        return rewrap.apply(f.copy());
    }

    /** f's when this wrapper is copied by wrapping a copy of f; none when it cannot be copied. */
    @Override
    public int readyCopies() {
        return rewrap == null ? 0 : f.readyCopies();
    }

    @Override
    public void close() {
        f.close();
    }
}
