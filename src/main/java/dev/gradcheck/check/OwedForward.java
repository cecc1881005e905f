package dev.gradcheck.check;

import dev.gradcheck.op.ClippedGraph;
import dev.gradcheck.op.Differentiable;
import dev.gradcheck.op.ForwardMode;
import dev.gradcheck.op.ForwardingFunction;
import dev.gradcheck.op.NodeCapture;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * The function under test, owing it a forward at x after the determinism row's forward elsewhere: a backward that
 * reads what the last forward left behind must meet the state a forward at x leaves when the mode runs, as it did
 * before that row ran. The debt is paid just before the next call that could read that state (a backward, a copy,
 * a second-order or forward-mode function); a forward made first cancels it, since the function's state is then
 * that forward's, as it would have been after the payment. Fast mode's first calls are forwards along u, so there
 * the forward at x is never made: one evaluation fewer per check, and the mode meets the same state.
 */
final class OwedForward extends ForwardingFunction {

    /** Copies of x, while the forward at them is owed; null when nothing is. */
    private Map<String, INDArray> owed;
    /** Whether the owed forward was made: the determinism row counts it then. */
    private boolean paid;

    OwedForward(Differentiable f) {
        super(f, OwedForward::new);
    }

    /** A forward at these inputs (copied now) is owed before the next call that could read the function's state. */
    void owe(Map<String, INDArray> inputs) {
        Map<String, INDArray> copies = new LinkedHashMap<>();
        inputs.forEach((name, x) -> copies.put(name, x.dup()));
        owed = copies;
    }

    boolean paid() {
        return paid;
    }

    private void pay() {
        if (owed == null) {
            return;
        }
        Map<String, INDArray> at = owed;
        owed = null;
        paid = true;
        try {
            f.forwardTransient(at);
        } catch (RuntimeException e) {
            // it ran at x before; a failure now is the mode's to meet
        }
    }

    @Override
    public Map<String, INDArray> forward(Map<String, INDArray> inputs) {
        owed = null;
        return f.forward(inputs);
    }

    @Override
    public Map<String, INDArray> forwardTransient(Map<String, INDArray> inputs) {
        owed = null;
        return f.forwardTransient(inputs);
    }

    @Override
    public Map<String, INDArray> vjp(Map<String, INDArray> inputs, Map<String, INDArray> cotangents,
                                     List<String> wrt) {
        pay();
        return f.vjp(inputs, cotangents, wrt);
    }

    @Override
    public Map<String, INDArray> vjpTransient(Map<String, INDArray> inputs, Map<String, INDArray> cotangents,
                                              List<String> wrt) {
        pay();
        return f.vjpTransient(inputs, cotangents, wrt);
    }

    @Override
    public Differentiable backwardFunction(List<String> wrt, List<String> outputs) {
        pay();
        return f.backwardFunction(wrt, outputs);
    }

    @Override
    public Optional<ForwardMode> forwardMode() {
        return paidIfPresent(f.forwardMode());
    }

    /** A graph split at its clips computes the blocks with functions of its own, which may read the same state. */
    @Override
    public Optional<ClippedGraph> clippedGraph() {
        return paidIfPresent(f.clippedGraph());
    }

    @Override
    public Optional<NodeCapture> nodeCapture() {
        return paidIfPresent(f.nodeCapture());
    }

    /** A capability that computes with the function is paid for before it is handed out; its absence costs nothing. */
    private <T> Optional<T> paidIfPresent(Optional<T> capability) {
        if (capability.isPresent()) {
            pay();
        }
        return capability;
    }

    @Override
    public Differentiable copy() {
        pay();
        return super.copy();
    }
}
