package dev.gradcheck.check.numeric;

import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Vectors of doubles handed back once read, to be handed out again: a full check's evaluations each make an output's
 * or an input's worth of doubles (softmax [128, 1024]: 1 MiB a backward pass, 3 a difference, ~5 GB over the check),
 * read once and dropped. Garbage at that rate made G1 grow its young generation to ~550 MB beside what the check
 * holds (docs/benchmarks-scale.md); taken from here, a check's evaluations reuse the few vectors a batch holds.
 * Safe across threads (a side and its copies share one). A vector taken holds whatever it held before: whoever takes
 * one writes every element.
 */
public final class VectorPool {
    /** Hands out new vectors and keeps none: for callers that keep what they are given. */
    public static final VectorPool NONE = new VectorPool(false);

    private final boolean keeps;
    private final ConcurrentHashMap<Integer, Queue<double[]>> free = new ConcurrentHashMap<>();

    private VectorPool(boolean keeps) {
        this.keeps = keeps;
    }

    /** A pool that keeps what is handed back. */
    public static VectorPool reusing() {
        return new VectorPool(true);
    }

    /** A vector of {@code length} doubles, its contents undefined. */
    public double[] take(int length) {
        Queue<double[]> q = keeps ? free.get(length) : null;
        double[] v = q == null ? null : q.poll();
        return v != null ? v : new double[length];
    }

    /** A vector its holder has done with: nothing may read or write it after this. */
    public void giveBack(double[] v) {
        if (keeps && v != null) {
            free.computeIfAbsent(v.length, n -> new ConcurrentLinkedQueue<>()).add(v);
        }
    }
}
