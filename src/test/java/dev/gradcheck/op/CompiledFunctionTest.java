package dev.gradcheck.op;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.op.catalog.OpCatalog;
import dev.gradcheck.spec.OpSpec;
import dev.gradcheck.spec.SpecLoader;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * The direct executor's edges: copies for other threads, and the calls it must leave to SameDiff's session (an
 * integer input that changes, an output whose shape follows the input values).
 */
class CompiledFunctionTest {

    private final Nd4jOpBuilder direct = new Nd4jOpBuilder(OpCatalog.nd4j()).withExecutor(Nd4jOpBuilder.Executor.DIRECT);
    private final Nd4jOpBuilder session = direct.withExecutor(Nd4jOpBuilder.Executor.SAMEDIFF);

    private static OpSpec spec(String yaml) throws Exception {
        return new SpecLoader().loadText("test.yaml", "test", yaml).get(0).specOrThrow();
    }

    /**
     * Issue 27, defect 10: the chain of 4,000 nodes is ordered for the direct executor without recursion
     * (it ended in a StackOverflowError on a thread's usual 1 MiB stack, which this test gives it explicitly), and
     * runs: an even number of negations gives back the input, and ones as its gradient.
     */
    @Test
    @Tag("slow") // about 10 s: 4,000 ops built and run, forward and backward
    @org.junit.jupiter.api.Timeout(value = 5, unit = java.util.concurrent.TimeUnit.MINUTES) // a hang guard only
    void aChainOfFourThousandNodesIsCompiledAndRunWithoutRecursion() throws Throwable {
        int nodes = 4_000;
        StringBuilder yaml = new StringBuilder("name: deep\ngraph:\n  - {op: neg, in: [x], out: n0}\n");
        for (int k = 1; k < nodes; k++) {
            yaml.append("  - {op: neg, in: [n").append(k - 1).append("], out: n").append(k).append("}\n");
        }
        yaml.append("inputs: {x: {shape: [3]}}\n");
        OpSpec spec = spec(yaml.toString());
        Map<String, INDArray> x = DirectExecutorTest.draw(spec);
        Throwable[] thrown = new Throwable[1];
        Thread t = new Thread(null, () -> {
            try (Differentiable f = direct.build(spec, x)) {
                String out = f.outputNames().get(0);
                assertEquals(x.get("x"), f.forward(x).get(out));
                INDArray ones = Nd4j.onesLike(x.get("x"));
                assertEquals(ones, f.vjp(x, Map.of(out, ones), List.of("x")).get("x"));
            } catch (Throwable e) {
                thrown[0] = e;
            }
        }, "one-MiB-stack", 1L << 20);
        t.start();
        t.join();
        if (thrown[0] != null) {
            throw thrown[0];
        }
    }

    /** Each thread's own copy gives the bits the original gives alone, whatever runs beside it. */
    @Test
    void copiesInTwoThreadsGiveTheSameNumbersAsTheOriginal() throws Exception {
        for (String yaml : List.of("""
                op: matmul
                inputs: {a: {shape: [5, 4]}, b: {shape: [4, 3]}}
                """, """
                name: g
                graph:
                  - {op: tanh, in: [x], out: t}
                  - {op: multiply, in: [t, w], out: y, error_clip: {max: 0.5}}
                inputs: {x: {shape: [2, 3]}, w: {shape: [2, 3]}}
                """)) {
            OpSpec spec = spec(yaml);
            Map<String, INDArray> x = DirectExecutorTest.draw(spec);
            try (Differentiable original = direct.build(spec, x)) {
                List<INDArray> expected = rows(original, x, spec.check());
                List<Differentiable> copies = List.of(original.copy(), original.copy());
                assertNotSame(original, copies.get(0));
                ExecutorService pool = Executors.newFixedThreadPool(2);
                try {
                    List<Future<List<INDArray>>> runs = new ArrayList<>();
                    for (Differentiable c : copies) {
                        runs.add(pool.submit(() -> rows(c, x, spec.check())));
                    }
                    for (Future<List<INDArray>> run : runs) {
                        List<INDArray> got = run.get();
                        for (int i = 0; i < expected.size(); i++) {
                            assertSameBits(expected.get(i), got.get(i));
                        }
                    }
                } finally {
                    pool.shutdown();
                    copies.forEach(Differentiable::close);
                }
                assertTrue(Nd4jOpBuilder.sessionUse(original).isEmpty(), "ran compiled");
            }
        }
    }

    /** Every one-hot VJP (a full Jacobian, as full mode builds it), a few times over. */
    private static List<INDArray> rows(Differentiable f, Map<String, INDArray> x, List<String> wrt) {
        List<INDArray> rows = new ArrayList<>();
        for (int repeat = 0; repeat < 5; repeat++) {
            INDArray y = f.forward(x).get(f.outputNames().get(0));
            rows.add(y);
            INDArray c = Nd4j.zeros(y.dataType(), y.shape());
            for (long j = 0; j < y.length(); j++) {
                c.putScalar(j, 1.0);
                for (String in : wrt) {
                    rows.add(f.vjp(x, Map.of(f.outputNames().get(0), c), wrt).get(in).dup());
                }
                c.putScalar(j, 0.0);
            }
        }
        return rows;
    }

    /**
     * The transient calls give the bits of forward and vjp without copying: the compiled graph's own arrays, which
     * its next run overwrites (so a caller reads them at once), while forward's and vjp's results stay the caller's.
     */
    @Test
    void transientResultsAreTheCopiesBitsAndTheNextRunOverwritesThem() throws Exception {
        OpSpec spec = spec("""
                op: matmul
                inputs: {a: {shape: [3, 4]}, b: {shape: [4, 2]}}
                """);
        Map<String, INDArray> x = DirectExecutorTest.draw(spec);
        Map<String, INDArray> other = Map.of("a", x.get("a").mul(2), "b", x.get("b"));
        try (Differentiable d = direct.build(spec, x)) {
            INDArray copy = d.forward(x).get("0");
            INDArray own = d.forwardTransient(x).get("0");
            assertSameBits(copy, own);
            INDArray c = Nd4j.rand(DataType.DOUBLE, 3, 2);
            INDArray grad = d.vjp(x, Map.of("0", c), List.of("a")).get("a");
            INDArray ownGrad = d.vjpTransient(x, Map.of("0", c), List.of("a")).get("a");
            assertSameBits(grad, ownGrad);
            assertTrue(Nd4jOpBuilder.sessionUse(d).isEmpty(), "ran compiled");

            INDArray expected = d.forward(other).get("0");
            assertSameBits(expected, own); // overwritten by that run: the graph's own array
            assertSameBits(expected, copy.mul(2)); // a·2 · b: exact in binary
            INDArray kept = d.forward(x).get("0");
            assertSameBits(kept, copy);
            d.forward(other);
            assertSameBits(kept, copy); // a caller's copy is left alone
        }
    }

    /** Shapes and the ops reading only fixed inputs were compiled for the indices given; new ones go to SameDiff. */
    @Test
    void anIntegerInputThatChangesSendsTheCallsToTheSession() throws Exception {
        OpSpec spec = spec("""
                op: gather
                attrs: {dimensions: [0]}
                inputs:
                  x: {shape: [4, 2]}
                  indices: {shape: [2], dtype: int32, init: {values: [0, 2]}}
                check: [x]
                """);
        Map<String, INDArray> x = DirectExecutorTest.draw(spec);
        Map<String, INDArray> other = Map.of("x", x.get("x"), "indices", Nd4j.createFromArray(3, 1));
        try (Differentiable d = direct.build(spec, x); Differentiable s = session.build(spec, x)) {
            assertSameBits(s.forward(x).get("0"), d.forward(x).get("0"));
            assertSameBits(s.forward(x).get("0"), d.forward(x).get("0"));
            assertTrue(Nd4jOpBuilder.sessionUse(d).isEmpty(), "compiled for the first indices");
            INDArray expected = s.forward(other).get("0");
            assertSameBits(expected, d.forward(other).get("0")); // rows 3 and 1, not the compiled 0 and 2
            assertLeftToTheSession(d, "integer or boolean input changed");
        }
    }

    /** unique's output length follows the values: recomputed on every call, and a new length is SameDiff's to run. */
    @Test
    void anOutputWhoseShapeFollowsTheValuesIsLeftToTheSessionWhenItChanges() throws Exception {
        OpSpec spec = spec("""
                op: unique
                inputs:
                  x: {shape: [5], init: {values: [1, 2, 2, 3, 3]}}
                """);
        Map<String, INDArray> x = DirectExecutorTest.draw(spec);
        Map<String, INDArray> sameLength = Map.of("x", Nd4j.createFromArray(4.0, 4.0, 5.0, 6.0, 6.0));
        Map<String, INDArray> longer = Map.of("x", Nd4j.createFromArray(1.0, 2.0, 3.0, 4.0, 5.0));
        try (Differentiable d = direct.build(spec, x); Differentiable s = session.build(spec, x)) {
            assertInstanceOf(CompiledFunction.class, d);
            assertSameBits(s.forward(x).get("0"), d.forward(x).get("0"));
            assertSameBits(s.forward(sameLength).get("0"), d.forward(sameLength).get("0"));
            assertTrue(Nd4jOpBuilder.sessionUse(d).isEmpty(), "three unique values each time: compiled");
            INDArray five = d.forward(longer).get("0");
            assertSameBits(s.forward(longer).get("0"), five);
            assertEquals(5, five.length());
            assertLeftToTheSession(d, "changed shape");
        }
    }

    /**
     * The loss gradcheck differentiates, sum(c ⊙ out), only seeds the backward: its kernels are skipped and the
     * cotangent fed where the op's own backward reads it, so a tanh VJP is one tanh_bp (the forward tanh is not
     * even needed: tanh_bp reads x), with the session's bits.
     */
    @Test
    void theLossThatSeedsTheBackwardIsNotRunOnEveryVjp() throws Exception {
        OpSpec spec = spec("""
                op: tanh
                inputs: {x: {shape: [6]}}
                """);
        Map<String, INDArray> x = DirectExecutorTest.draw(spec);
        try (Differentiable d = direct.build(spec, x); Differentiable s = session.build(spec, x)) {
            INDArray c = Nd4j.createFromArray(0.5, -1.0, 2.0, 0.0, -0.0, 3.0);
            for (int i = 0; i < 3; i++) {
                assertSameBits(s.vjp(x, Map.of("0", c), List.of("x")).get("x"),
                        d.vjp(x, Map.of("0", c), List.of("x")).get("x"));
            }
            assertEquals(java.util.OptionalInt.of(1), ((CompiledFunction) d).backwardSteps(List.of("x")));
        }
    }

    /** A VJP with cotangents for other outputs than the first one's is the session's, errors and all. */
    @Test
    void aVjpUnlikeTheFirstIsTheSessions() throws Exception {
        OpSpec spec = spec("""
                op: moments
                attrs: {dimensions: [1]}
                inputs: {x: {shape: [3, 4]}}
                """);
        Map<String, INDArray> x = DirectExecutorTest.draw(spec);
        try (Differentiable d = direct.build(spec, x); Differentiable s = session.build(spec, x)) {
            Map<String, INDArray> y = s.forward(x);
            d.forward(x);
            INDArray c0 = Nd4j.ones(DataType.DOUBLE, y.get("0").shape());
            INDArray c1 = Nd4j.ones(DataType.DOUBLE, y.get("1").shape());
            Map<String, INDArray> both = Map.of("0", c0, "1", c1);
            assertSameBits(s.vjp(x, both, List.of("x")).get("x"), d.vjp(x, both, List.of("x")).get("x"));
            assertSameBits(s.vjp(x, both, List.of("x")).get("x"), d.vjp(x, both, List.of("x")).get("x"));
            Object sessionOutcome = outcome(() -> s.vjp(x, Map.of("0", c0), List.of("x")).get("x"));
            Object directOutcome = outcome(() -> d.vjp(x, Map.of("0", c0), List.of("x")).get("x"));
            if (sessionOutcome instanceof INDArray a) {
                assertSameBits(a, (INDArray) directOutcome);
            } else {
                assertEquals(sessionOutcome, directOutcome);
            }
        }
    }

    private static void assertLeftToTheSession(Differentiable f, String why) {
        String use = Nd4jOpBuilder.sessionUse(f).orElse("");
        assertTrue(use.contains(why), "expected the session to take over (" + why + "): " + use);
    }

    /** The same shape, dtype and values to the last bit (INDArray.equals allows a small difference). */
    private static void assertSameBits(INDArray expected, INDArray actual) {
        assertEquals(expected.dataType(), actual.dataType());
        assertArrayEquals(expected.shape(), actual.shape());
        assertArrayEquals(DirectExecutorTest.bits(expected), DirectExecutorTest.bits(actual), 0.0);
    }

    private static Object outcome(java.util.function.Supplier<INDArray> call) {
        try {
            return call.get();
        } catch (RuntimeException e) {
            return e.getClass() + ": " + e.getMessage();
        }
    }
}
