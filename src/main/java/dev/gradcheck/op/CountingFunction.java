package dev.gradcheck.op;

import dev.gradcheck.result.Calls;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * A function that counts its forward evaluations and backward passes into a {@link Tally}, passing every call on
 * unchanged; its copies (for other threads) count into the same tally.
 */
public final class CountingFunction extends ForwardingFunction {

    /** The counts of every function made to count into it. */
    public static final class Tally {
        private final AtomicLong forward = new AtomicLong();
        private final AtomicLong backward = new AtomicLong();

        public Calls calls() {
            return new Calls(forward.get(), backward.get());
        }
    }

    private final Tally tally;

    public CountingFunction(Differentiable f, Tally tally) {
        super(f, copy -> new CountingFunction(copy, tally));
        this.tally = tally;
    }

    @Override
    public Map<String, INDArray> forward(Map<String, INDArray> inputs) {
        tally.forward.incrementAndGet();
        return f.forward(inputs);
    }

    @Override
    public Map<String, INDArray> forwardTransient(Map<String, INDArray> inputs) {
        tally.forward.incrementAndGet();
        return f.forwardTransient(inputs);
    }

    @Override
    public Map<String, INDArray> vjp(Map<String, INDArray> inputs, Map<String, INDArray> cotangents,
                                     List<String> wrt) {
        tally.backward.incrementAndGet();
        return f.vjp(inputs, cotangents, wrt);
    }

    @Override
    public Map<String, INDArray> vjpTransient(Map<String, INDArray> inputs, Map<String, INDArray> cotangents,
                                              List<String> wrt) {
        tally.backward.incrementAndGet();
        return f.vjpTransient(inputs, cotangents, wrt);
    }
}
