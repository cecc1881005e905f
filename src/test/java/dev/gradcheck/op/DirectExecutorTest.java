package dev.gradcheck.op;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.gradcheck.op.catalog.OpCatalog;
import dev.gradcheck.spec.InputSpec;
import dev.gradcheck.spec.InputValues;
import dev.gradcheck.spec.LoadedSpec;
import dev.gradcheck.spec.OpSpec;
import dev.gradcheck.spec.SpecLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * The direct executor gives SameDiff's numbers: every spec under specs/ is built twice, once evaluated by SameDiff's
 * session and once by the compiled path, and both get the same sequence of calls — forwards and VJPs at the
 * spec's inputs, at perturbed inputs, and back, with random and one-hot cotangents, the same point twice in a row
 * (where the compiled path reuses its forward part), and for order-2 specs the backward's own forward and VJP.
 * Every output and gradient must be the same bits (same ops, same arguments, same input values: no tolerance), and
 * a call that throws in one must throw the same way in the other.
 */
@org.junit.jupiter.api.Tag("slow") // the whole spec suite, through both executors
class DirectExecutorTest {

    private static final Nd4jOpBuilder SESSION = new Nd4jOpBuilder(OpCatalog.nd4j())
            .withExecutor(Nd4jOpBuilder.Executor.SAMEDIFF);
    private static final Nd4jOpBuilder DIRECT = new Nd4jOpBuilder(OpCatalog.nd4j())
            .withExecutor(Nd4jOpBuilder.Executor.DIRECT);

    @TestFactory
    Stream<DynamicTest> everySpecGivesTheSameNumbersThroughBothExecutors() throws Exception {
        List<DynamicTest> tests = new ArrayList<>();
        for (Path file : SpecLoader.collect(List.of(Path.of("specs")))) {
            for (LoadedSpec loaded : new SpecLoader().load(file)) {
                if (loaded.isValid() && loaded.spec().layer() == null) { // DL4J's layers run no SameDiff graph
                    OpSpec spec = loaded.specOrThrow();
                    tests.add(DynamicTest.dynamicTest(spec.name() + " (" + loaded.pos() + ")", () -> sameNumbers(spec)));
                }
            }
        }
        assertTrue(tests.size() > 250, "the spec suite was found: " + tests.size());
        return tests.stream();
    }

    private static void sameNumbers(OpSpec spec) throws Exception {
        Map<String, INDArray> x = draw(spec);
        Differentiable session;
        try {
            session = SESSION.build(spec, copy(x));
        } catch (Exception | Error e) {
            return; // the spec does not build (an expected error): nothing is evaluated by either executor
        }
        try (session; Differentiable direct = DIRECT.build(spec, copy(x))) {
            assertEquals(session.getClass() == SameDiffFunction.class, direct instanceof CompiledFunction,
                    "a one-op spec is compiled, a graph spec is a graph of compiled functions");
            List<Object> expected = script(spec, session, x);
            List<Object> actual = script(spec, direct, x);
            noteFallbacks(spec, direct);
            assertSame(spec.name(), expected, actual);
        }
        if (spec.order() == 2) {
            List<Object> expected = secondOrder(spec, SESSION, x);
            List<Object> actual = secondOrder(spec, DIRECT, x);
            assertSame(spec.name(), expected, actual);
        }
    }

    /** The calls both executors get; each result, or the exception it threw, in order. */
    private static List<Object> script(OpSpec spec, Differentiable f, Map<String, INDArray> x) {
        List<Object> results = new ArrayList<>();
        Object atX = call(() -> f.forward(x));
        results.add(atX);
        if (!(atX instanceof Map<?, ?> outputs)) {
            return results;
        }
        @SuppressWarnings("unchecked")
        Map<String, INDArray> y = (Map<String, INDArray>) outputs;
        List<String> wrt = spec.check().stream().filter(n -> x.get(n).dataType().isFPType()).toList();
        Map<String, INDArray> random = cotangents(y, spec.seed(), false);
        Map<String, INDArray> oneHot = cotangents(y, spec.seed(), true);
        Map<String, INDArray> moved = perturbed(x, wrt, spec.seed());
        if (random.isEmpty() || wrt.isEmpty()) {
            results.add(call(() -> f.forward(moved)));
            results.add(call(() -> f.forward(x)));
            return results;
        }
        results.add(call(() -> f.vjp(x, random, wrt)));
        results.add(call(() -> f.vjp(x, oneHot, wrt)));      // same point: the forward part is reused
        results.add(call(() -> f.forward(moved)));
        results.add(call(() -> f.vjp(moved, random, wrt)));  // new point: it is not
        results.add(call(() -> f.forward(x)));
        results.add(call(() -> f.vjp(x, oneHot, wrt)));
        if (wrt.size() > 1) {
            results.add(call(() -> f.vjp(moved, random, wrt.subList(0, 1))));
        }
        return results;
    }

    /** The backward as a function (order 2) from a fresh build, as the checker makes it: its forward and a VJP. */
    private static List<Object> secondOrder(OpSpec spec, Nd4jOpBuilder builder, Map<String, INDArray> x)
            throws Exception {
        List<Object> results = new ArrayList<>();
        try (Differentiable first = builder.build(spec, copy(x))) {
            Map<String, INDArray> y = first.forward(x);
            List<String> outs = y.keySet().stream().filter(o -> y.get(o).dataType().isFPType()).sorted().toList();
            List<String> wrt = spec.check().stream().filter(n -> x.get(n).dataType().isFPType()).toList();
            Object built = call(() -> Map.of("_", Nd4j.scalar(0.0), "f", first.backwardFunction(wrt, outs)));
            if (!(built instanceof Map<?, ?> m)) {
                results.add(built);
                return results;
            }
            try (Differentiable backward = (Differentiable) m.get("f")) {
                Map<String, INDArray> in = new LinkedHashMap<>(x);
                cotangents(y, spec.seed() + 1, false).forEach((o, v) -> {
                    if (outs.contains(o)) {
                        in.put(Differentiable.cotangentName(o), v);
                    }
                });
                Object grads = call(() -> backward.forward(in));
                results.add(grads);
                if (grads instanceof Map<?, ?> g) {
                    @SuppressWarnings("unchecked")
                    Map<String, INDArray> gy = (Map<String, INDArray>) g;
                    Map<String, INDArray> ct = cotangents(gy, spec.seed() + 2, false);
                    results.add(call(() -> backward.vjp(in, ct, wrt)));
                    results.add(call(() -> backward.vjp(in, ct, wrt)));
                }
            }
        }
        return results;
    }

    private interface Call {
        Object run() throws Exception;
    }

    private static Object call(Call c) {
        try {
            return c.run();
        } catch (Exception | Error e) {
            return e;
        }
    }

    private static void assertSame(String spec, List<Object> expected, List<Object> actual) {
        assertEquals(expected.size(), actual.size(), "calls made");
        for (int i = 0; i < expected.size(); i++) {
            Object e = expected.get(i);
            Object a = actual.get(i);
            String where = spec + ", call " + i;
            if (e instanceof Throwable te) {
                assertTrue(a instanceof Throwable, where + ": SameDiff threw " + te + ", the direct path returned " + a);
                assertEquals(te.getClass(), a.getClass(), where);
                assertEquals(te.getMessage(), ((Throwable) a).getMessage(), where);
                continue;
            }
            if (a instanceof Throwable ta) {
                fail(where + ": the direct path threw " + ta + " where SameDiff returned", ta);
            }
            Map<?, ?> em = (Map<?, ?>) e;
            Map<?, ?> am = (Map<?, ?>) a;
            assertEquals(new TreeMap<>(em).keySet(), new TreeMap<>(am).keySet(), where + ": names");
            for (Object k : em.keySet()) {
                INDArray ea = (INDArray) em.get(k);
                INDArray aa = (INDArray) am.get(k);
                assertEquals(ea.dataType(), aa.dataType(), where + " " + k + ": dtype");
                assertArrayEquals(ea.shape(), aa.shape(), where + " " + k + ": shape");
                // bit for bit: Arrays.equals on doubles compares doubleToLongBits (NaN = NaN, -0 ≠ +0)
                assertTrue(Arrays.equals(bits(ea), bits(aa)), where + " " + k + ": values differ\n  SameDiff "
                        + ea + "\n  direct   " + aa);
            }
        }
    }

    static double[] bits(INDArray a) {
        return a.isEmpty() ? new double[0] : a.castTo(DataType.DOUBLE).dup('c').data().asDouble();
    }

    /** The spec's inputs as the checker draws them: from its seed, in their dtypes. */
    static Map<String, INDArray> draw(OpSpec spec) {
        Map<String, INDArray> in = new LinkedHashMap<>();
        for (InputSpec i : spec.inputs()) {
            in.put(i.name(), Nd4j.createFromArray(InputValues.generate(i, spec.seed())).reshape('c', i.shape())
                    .castTo(Nd4jTypes.of(i.dtype())));
        }
        return in;
    }

    private static Map<String, INDArray> copy(Map<String, INDArray> in) {
        Map<String, INDArray> c = new LinkedHashMap<>();
        in.forEach((k, v) -> c.put(k, v.dup()));
        return c;
    }

    /** The checked inputs moved by up to 1e-3 of their size (a finite-difference step, larger). */
    private static Map<String, INDArray> perturbed(Map<String, INDArray> x, List<String> wrt, long seed) {
        Map<String, INDArray> moved = copy(x);
        SplittableRandom rnd = new SplittableRandom(seed ^ 0x5DEECE66DL);
        for (String n : wrt) {
            INDArray a = moved.get(n);
            for (long i = 0; i < a.length(); i++) {
                a.putScalar(i, a.getDouble(i) * (1 + 1e-3 * (rnd.nextDouble() - 0.5)) + 1e-4);
            }
        }
        return moved;
    }

    /** A cotangent per floating output: seeded normal values, or one-hot at the first output's first element. */
    private static Map<String, INDArray> cotangents(Map<String, INDArray> y, long seed, boolean oneHot) {
        Map<String, INDArray> c = new LinkedHashMap<>();
        SplittableRandom rnd = new SplittableRandom(seed);
        boolean first = true;
        for (String o : new TreeMap<>(y).keySet()) {
            INDArray yo = y.get(o);
            if (!yo.dataType().isFPType()) {
                continue;
            }
            INDArray ct = Nd4j.zeros(yo.dataType(), yo.shape());
            if (oneHot) {
                if (first && ct.length() > 0) {
                    ct.putScalar(0, 1.0);
                }
            } else {
                for (long i = 0; i < ct.length(); i++) {
                    ct.putScalar(i, InputValues.gaussian(rnd));
                }
            }
            first = false;
            c.put(o, ct);
        }
        return c;
    }

    /** What the direct path left to SameDiff's session, and why: one line per spec that fell back anywhere. */
    private static final Map<String, String> FALLBACKS = new java.util.concurrent.ConcurrentSkipListMap<>();
    private static final java.util.concurrent.atomic.AtomicInteger COMPARED = new java.util.concurrent.atomic.AtomicInteger();

    /**
     * The only reasons a spec's graph may stay with the session. Anything else (a compiled result that differed
     * from the session's, a compiled run that failed) means the direct path silently stopped being used.
     */
    private static final java.util.regex.Pattern ALLOWED_FALLBACK = java.util.regex.Pattern.compile(
            "(forward|backward \\[[^]]*]): (its first call failed in the session" // SameDiff itself errs
            + "|\\w+'s result depends on what its output array held before"     // kernels that read their output
            + "|the graph loops \\(control flow\\).*)");

    private static void noteFallbacks(OpSpec spec, Differentiable direct) {
        COMPARED.incrementAndGet();
        Nd4jOpBuilder.sessionUse(direct).ifPresent(why -> {
            FALLBACKS.put(spec.name(), spec.op().value() + ": " + why);
            for (String reason : why.split("; ")) {
                assertTrue(ALLOWED_FALLBACK.matcher(reason).matches(), spec.name() + " left to the session: " + reason);
            }
        });
    }

    @org.junit.jupiter.api.AfterAll
    static void mostSpecsRanCompiledThroughout() {
        System.err.println("direct executor: " + COMPARED.get() + " specs compared, " + FALLBACKS.size()
                + " with a part left to SameDiff's session");
        FALLBACKS.forEach((name, why) -> System.err.println("  " + name + " (" + why + ")"));
        assertTrue(COMPARED.get() - FALLBACKS.size() >= 250, "specs run compiled throughout: "
                + (COMPARED.get() - FALLBACKS.size()) + " of " + COMPARED.get());
    }
}
