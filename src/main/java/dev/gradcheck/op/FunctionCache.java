package dev.gradcheck.op;

import dev.gradcheck.spec.InputSpec;
import dev.gradcheck.spec.InvalidSpecException;
import dev.gradcheck.spec.Located;
import dev.gradcheck.spec.OpSpec;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Built functions kept for the next check of the same spec in this JVM (a rerun in an edit loop, a shell, a
 * benchmark): building a function and its first forward and backward (SameDiff's graph, its gradient function, the
 * compiled calls and their verification) cost milliseconds, where a warm evaluation costs microseconds. A function
 * is lent to one check at a time and comes back when the check closes it; one whose call threw, or whose backward
 * was taken over for order 2, is closed instead. Copies for a check's helper threads are lent the same way. Lending changes no result: a function gives the same bits on its
 * first call and its thousandth (the direct executor's promise), and every call assigns all inputs. What a lent
 * function's calls were measured to take goes with it ({@link CallSizes}), so that its next check's memory gate
 * starts from the first check's figures.
 *
 * <p>The key is what a build depends on: the spec document's position, its op or graph, attributes, outputs and
 * checked inputs, each input's name, shape and dtype, and the values of the inputs that are not checked (an integer
 * axis configures an op when it is built).
 */
public final class FunctionCache {

    /** How a function is built when none is kept. */
    @FunctionalInterface
    public interface Builder {
        Differentiable build(OpSpec spec, Map<String, INDArray> inputs) throws InvalidSpecException;
    }

    private final Builder builder;
    private final int capacity;
    /** Idle functions per key, least recently used first. */
    private final LinkedHashMap<Key, Deque<Kept>> idle = new LinkedHashMap<>(16, 0.75f, true);
    private int idleCount;

    /** @param capacity how many idle functions to keep in all; the least recently used are closed beyond it */
    public FunctionCache(Builder builder, int capacity) {
        this.builder = builder;
        this.capacity = capacity;
    }

    /** A kept function of the same build, or a new one; closing it gives it back. */
    public Differentiable build(OpSpec spec, Map<String, INDArray> inputs) throws InvalidSpecException {
        Key key = Key.of(spec, inputs);
        if (key == null) {
            return builder.build(spec, inputs);
        }
        Kept k = take(key);
        return k == null ? new Lent(key, new Kept(builder.build(spec, inputs), new CallSizes()), null)
                : new Lent(key, k, () -> builder.build(spec, inputs));
    }

    /** An idle function, with what its calls were measured to take in the checks it served. */
    private record Kept(Differentiable f, CallSizes sizes) {}

    private synchronized Kept take(Key key) {
        Deque<Kept> kept = idle.get(key);
        if (kept == null || kept.isEmpty()) {
            return null;
        }
        idleCount--;
        Kept f = kept.pop();
        if (kept.isEmpty()) {
            idle.remove(key);
        }
        return f;
    }

    private synchronized int idle(Key key) {
        Deque<Kept> kept = idle.get(key);
        return kept == null ? 0 : kept.size();
    }

    private void giveBack(Key key, Kept f) {
        List<Differentiable> evicted = new ArrayList<>();
        synchronized (this) {
            idle.computeIfAbsent(key, k -> new ArrayDeque<>()).push(f);
            idleCount++;
            for (Iterator<Deque<Kept>> it = idle.values().iterator(); idleCount > capacity && it.hasNext(); ) {
                Deque<Kept> oldest = it.next();
                while (idleCount > capacity && !oldest.isEmpty()) {
                    evicted.add(oldest.removeLast().f());
                    idleCount--;
                }
                if (oldest.isEmpty()) {
                    it.remove();
                }
            }
        }
        evicted.forEach(Differentiable::close);
    }

    /** Closes every idle function. */
    public void clear() {
        List<Differentiable> all = new ArrayList<>();
        synchronized (this) {
            idle.values().forEach(kept -> kept.forEach(k -> all.add(k.f())));
            idle.clear();
            idleCount = 0;
        }
        all.forEach(Differentiable::close);
    }

    private record Key(String pos, String op, Map<String, Object> attrs, Object graph, List<String> outputs,
                       List<String> check, List<String> inputs, List<String> constants) {

        /** Constant inputs longer than this are not written into a key: such builds are not kept. */
        private static final long MAX_CONSTANT = 4096;

        /** The key of a build, or null when it is not kept. */
        static Key of(OpSpec spec, Map<String, INDArray> arrays) {
            Map<String, Object> attrs = new LinkedHashMap<>();
            spec.attrs().forEach((name, v) -> attrs.put(name, v.value()));
            List<String> inputs = new ArrayList<>();
            List<String> constants = new ArrayList<>();
            for (InputSpec in : spec.inputs()) {
                INDArray a = arrays.get(in.name());
                inputs.add(in.name() + ":" + (a == null ? "-" : a.dataType() + Arrays.toString(a.shape())));
                if (a != null && !spec.check().contains(in.name())) {
                    if (a.length() > MAX_CONSTANT) {
                        return null;
                    }
                    constants.add(in.name() + "=" + Arrays.toString(a.dup('c').data().asDouble()));
                }
            }
            return new Key(spec.pos().toString(), spec.op().value(), attrs, spec.graph() != null ? spec.graph() : spec.layer(),
                    spec.outputs().stream().map(Located::value).toList(), List.copyOf(spec.check()), inputs,
                    constants);
        }
    }

    /** How a function lent again would be built afresh. */
    @FunctionalInterface
    private interface Fresh {
        Differentiable build() throws InvalidSpecException;
    }

    /** A function lent to one check; closing it gives it back unless it threw or was taken over. */
    private final class Lent extends ForwardingFunction {
        private final Key key;
        private final CallSizes sizes;
        private final Fresh fresh;
        private boolean keep = true;
        private boolean closed;

        /** @param fresh how to build the function anew, when {@code f} was used before; null for a new build */
        Lent(Key key, Kept kept, Fresh fresh) {
            super(kept.f());
            this.key = key;
            this.sizes = kept.sizes();
            this.fresh = fresh;
        }

        /** Its own, kept with it while it is idle: what its calls took in the checks it served. */
        @Override
        public Optional<CallSizes> callSizes() {
            return Optional.of(sizes);
        }

        private <T> T watch(java.util.function.Supplier<T> call) {
            try {
                return call.get();
            } catch (RuntimeException | Error e) {
                keep = false; // its state after a failure is not a fresh build's
                throw e;
            }
        }

        @Override
        public Map<String, INDArray> forward(Map<String, INDArray> inputs) {
            return watch(() -> f.forward(inputs));
        }

        @Override
        public Map<String, INDArray> vjp(Map<String, INDArray> inputs, Map<String, INDArray> cotangents,
                                         List<String> wrt) {
            return watch(() -> f.vjp(inputs, cotangents, wrt));
        }

        @Override
        public Map<String, INDArray> forwardTransient(Map<String, INDArray> inputs) {
            return watch(() -> f.forwardTransient(inputs));
        }

        @Override
        public Map<String, INDArray> vjpTransient(Map<String, INDArray> inputs, Map<String, INDArray> cotangents,
                                                  List<String> wrt) {
            return watch(() -> f.vjpTransient(inputs, cotangents, wrt));
        }

        @Override
        public List<String> inputsChangedByForward(Map<String, INDArray> inputs) {
            return watch(() -> f.inputsChangedByForward(inputs));
        }

        /**
         * The backward takes the function over (closing it closes this one), so it is not given back. It is built
         * from a fresh function: SameDiff builds a backward from the graph as it stands, and a graph that served
         * backward passes already holds their loss.
         */
        @Override
        public Differentiable backwardFunction(List<String> wrt, List<String> outputs) {
            if (fresh != null) {
                Differentiable anew;
                try {
                    anew = fresh.build();
                } catch (InvalidSpecException e) {
                    throw new IllegalStateException("a spec that built once failed to build again", e);
                }
                Differentiable backward;
                try {
                    backward = anew.backwardFunction(wrt, outputs);
                } catch (RuntimeException | Error e) {
                    anew.close();
                    throw e;
                }
                close(); // the caller keeps the backward only: this one goes back now
                return backward;
            }
            keep = false;
            Differentiable backward = f.backwardFunction(wrt, outputs);
            closed = true;
            return backward;
        }

        /** The kept builds of this spec that {@link #copy} would lend. */
        @Override
        public int readyCopies() {
            return idle(key);
        }

        /** Another thread's instance: a kept one of the same build if there is one, lent like this one. */
        @Override
        public Differentiable copy() {
            Kept kept = take(key);
            return kept != null ? new Lent(key, kept, fresh != null ? fresh : f::copy)
                    : new Lent(key, new Kept(f.copy(), new CallSizes()), null);
        }

        @Override
        public void close() {
            if (closed) {
                return;
            }
            closed = true;
            if (keep) {
                giveBack(key, new Kept(f, sizes));
            } else {
                f.close();
            }
        }
    }
}
