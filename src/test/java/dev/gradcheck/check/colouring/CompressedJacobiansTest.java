package dev.gradcheck.check.colouring;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.check.DrawnInputs;
import dev.gradcheck.check.Functions;
import dev.gradcheck.check.GradientChecker;
import dev.gradcheck.check.OutputSelection;
import dev.gradcheck.check.Specs;
import dev.gradcheck.check.full.FullCheck;
import dev.gradcheck.check.jacobian.AnalyticJacobian;
import dev.gradcheck.check.jacobian.ParallelLines;
import dev.gradcheck.check.numeric.Counter;
import dev.gradcheck.check.numeric.EntryFilter;
import dev.gradcheck.check.numeric.Jacobian;
import dev.gradcheck.check.numeric.JacobianComparison;
import dev.gradcheck.check.numeric.NumericalDerivative;
import dev.gradcheck.check.numeric.NumericalError;
import dev.gradcheck.check.numeric.SparseBlock;
import dev.gradcheck.check.numeric.Step;
import dev.gradcheck.check.target.CheckTarget;
import dev.gradcheck.check.target.Settings;
import dev.gradcheck.op.Differentiable;
import dev.gradcheck.op.Nd4jOpBuilder;
import dev.gradcheck.op.catalog.OpCatalog;
import dev.gradcheck.result.CheckKind;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.result.Status;
import dev.gradcheck.result.Verdict;
import dev.gradcheck.spec.OpSpec;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * Compressed full mode against dense full mode on real ND4J ops with deliberately wrong backwards: each bug that
 * compression could hide from a naive check (a permutation inside a group, a nonzero outside the pattern) and each
 * small one (one element off by 1e-3, everything scaled by 1 + 1e-3, a transposed gradient) must fail exactly as in
 * dense mode: same status, same verdicts, same worst element with the same values. A target with a failing block is
 * reported from dense values, so compression's own judgement of each block ({@link FullCheck#compress}, before that
 * fallback) is held to dense mode's too. Both orientations are covered:
 * tanh and a square matmul compress the numerical side (their analytic side is the cheaper to know in full), a
 * broadcasting multiply compresses the analytic side (96 output rows against 22 input elements).
 */
public class CompressedJacobiansTest {

    private static final Nd4jOpBuilder BUILDER = new Nd4jOpBuilder(OpCatalog.nd4j());

    private static final String TANH = """
            op: tanh
            inputs:
              x: {shape: [4, 4], init: {uniform: [-2, 2]}}
            """;

    /** out[i, j, l] = x[i, j, 0] * y[0, 0, l]: 96 rows, grouped 16 to a backward pass. */
    private static final String BROADCAST = """
            op: multiply
            inputs:
              x: {shape: [4, 4, 1], init: {uniform: [-2, 2]}}
              y: {shape: [1, 1, 6], init: {uniform: [-2, 2]}}
            """;

    /** out[i, j] = Σ_k a[i, k] b[k, j]: the columns a[·, k] of one k share a group. */
    private static final String MATMUL = """
            op: matmul
            inputs:
              a: {shape: [4, 4], init: {uniform: [-2, 2]}}
              b: {shape: [4, 4], init: {uniform: [-2, 2]}}
            """;

    static Stream<Arguments> wrongBackwards() {
        return Stream.of(
                // permutations within a group: invisible to an unweighted compression
                Arguments.of("tanh, two gradient entries swapped", TANH, swapGradient("x", 3, 7)),
                Arguments.of("matmul, two columns of one group swapped", MATMUL, swapGradient("a", 0, 4)),
                Arguments.of("multiply, two rows of one group swapped", BROADCAST, swapCotangent("0", 0, 7)),
                // a nonzero where the numerical Jacobian is zero, 100x and 5x the tolerance
                Arguments.of("tanh, a nonzero outside the pattern", TANH, addOutside("x", "0", 2, 9, 1e-4)),
                Arguments.of("tanh, a small nonzero outside the pattern", TANH, addOutside("x", "0", 2, 9, 5e-6)),
                Arguments.of("multiply, a nonzero outside the pattern", BROADCAST, addOutside("x", "0", 0, 5, 1e-4)),
                Arguments.of("matmul, a nonzero outside the pattern", MATMUL, addOutside("b", "0", 1, 2, 1e-4)),
                // one element off by 1e-3
                Arguments.of("tanh, one element off by 1e-3", TANH, oneElementOff("x", "0", 5, 5, 1e-3)),
                Arguments.of("multiply, one element off by 1e-3", BROADCAST, oneElementOff("x", "0", 39, 6, 1e-3)),
                Arguments.of("matmul, one element off by 1e-3", MATMUL, oneElementOff("b", "0", 6, 10, 1e-3)),
                // the whole backward scaled by 1 + 1e-3
                Arguments.of("tanh scaled by 1 + 1e-3", TANH, (Corruption) f -> Functions.withBackward(f,
                        Functions.scaledBy(1 + 1e-3))),
                Arguments.of("multiply scaled by 1 + 1e-3", BROADCAST, (Corruption) f -> Functions.withBackward(f,
                        Functions.scaledBy(1 + 1e-3))),
                Arguments.of("matmul scaled by 1 + 1e-3", MATMUL, (Corruption) f -> Functions.withBackward(f,
                        Functions.scaledBy(1 + 1e-3))),
                // a transposed gradient
                Arguments.of("tanh, gradient transposed", TANH, transposed("x", 4)),
                Arguments.of("multiply, gradient of x transposed", BROADCAST, transposed("x", 4)),
                Arguments.of("matmul, gradient of a transposed", MATMUL, transposed("a", 4)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("wrongBackwards")
    void aWrongBackwardFailsUnderCompressionExactlyAsInDenseMode(String name, String yaml, Corruption corruption)
            throws Exception {
        CheckResult dense = check(yaml + "compress: false\n", corruption);
        CheckResult compressed = check(yaml, corruption);
        assertEquals(Status.FAILED, dense.status(), name + ": dense mode catches it\n" + dense);
        assertEquals(dense.status(), compressed.status(), name + "\n" + compressed);
        List<GradientResult> d = jacobianRows(dense);
        List<GradientResult> c = jacobianRows(compressed);
        assertEquals(d.size(), c.size());
        for (int k = 0; k < d.size(); k++) {
            String block = name + ", d" + d.get(k).output() + "/d" + d.get(k).input();
            assertEquals(d.get(k).verdict(), c.get(k).verdict(), block);
            if (d.get(k).verdict() != Verdict.PASS) {
                assertArrayEquals(d.get(k).worst().outputIndex(), c.get(k).worst().outputIndex(), block);
                assertArrayEquals(d.get(k).worst().inputIndex(), c.get(k).worst().inputIndex(), block);
                assertEquals(d.get(k).worst().analytic(), c.get(k).worst().analytic(), 0, block);
                assertEquals(d.get(k).worst().numerical(), c.get(k).worst().numerical(), 0, block);
                assertEquals(d.get(k).maxScore(), c.get(k).maxScore(), 0, block);
            }
        }
        // once a block disagrees the report's rows are dense mode's own, so compression is held to them on its own
        Findings own = compress(yaml, corruption);
        for (GradientResult block : d) {
            assertJudgedAsDense(block, own.row(block), name + ", compressed d" + block.output() + "/d" + block.input());
        }
    }

    /**
     * Findings's own judgement of a block against dense mode's: the same verdict, and where the block disagrees
     * about the same worst score, since a group with an entry that disagrees is evaluated again line by line, so
     * that the entry is judged on its dense values. Not the same entry to the last digit: dense mode judges each
     * entry beyond the tolerance once more at its most precise step (MostPreciseStep), which moves its value by
     * the rounding it removes, and among entries all off by the same factor that decides which one is worst.
     */
    private static void assertJudgedAsDense(GradientResult dense, JacobianComparison.Row own, String block) {
        assertEquals(dense.verdict(), own.verdict(), block);
        if (dense.verdict() != Verdict.PASS) {
            assertEquals(dense.maxScore(), own.maxScore(), 1e-5 * dense.maxScore(), block);
        }
    }

    @Test
    void theRightBackwardsPassCompressedAtAFractionOfTheEvaluations() throws Exception {
        // tanh: 16 backward passes + 2 forwards along one direction (every column in one group), dense 16 + 32
        assertEquals(16 + 2, jacobianRows(check(TANH, f -> f)).get(0).evaluations());
        assertEquals(16 + 32, jacobianRows(check(TANH + "compress: false\n", f -> f)).get(0).evaluations());
        // multiply, block d0/dx: 2 forwards per element of x + one backward per group of rows (16: a row per x)
        CheckResult broadcast = check(BROADCAST, f -> f);
        assertEquals(Status.PASSED, broadcast.status(), broadcast.toString());
        assertEquals(2 * 16 + 16, jacobianRows(broadcast).get(0).evaluations());
        // matmul: 16 backward passes + 2 forwards per group of columns (4 for a, 4 for b)
        CheckResult matmul = check(MATMUL, f -> f);
        assertEquals(Status.PASSED, matmul.status(), matmul.toString());
        assertEquals(16 + 2 * 4, jacobianRows(matmul).get(0).evaluations());
        for (String yaml : List.of(TANH, BROADCAST, MATMUL)) {
            assertPassedOnCompressionsOwnFindings(yaml);
        }
    }

    /**
     * A right backward's groups all pass their screen (none is evaluated again line by line), and the rows the
     * report gives are compression's own: its values, not dense mode's (which differ in the last digits wherever a
     * value was read off a group).
     */
    private static void assertPassedOnCompressionsOwnFindings(String yaml) throws Exception {
        Findings own = compress(yaml, f -> f);
        assertTrue(own.blocks().groups() > 0, yaml);
        assertEquals(0, own.blocks().recomputedGroups(), yaml);
        List<GradientResult> rows = jacobianRows(check(yaml, f -> f));
        assertFalse(rows.isEmpty(), yaml);
        for (GradientResult row : rows) {
            JacobianComparison.Row found = own.row(row);
            assertEquals(Verdict.PASS, found.verdict(), yaml);
            assertEquals(found.maxScore(), row.maxScore(), 0, yaml);
            assertEquals(found.maxAbs(), row.maxAbsError(), 0, yaml);
            assertArrayEquals(found.worst().outputIndex(), row.worst().outputIndex(), yaml);
            assertArrayEquals(found.worst().inputIndex(), row.worst().inputIndex(), yaml);
        }
    }

    /**
     * tanh of elements near 0.5 and one at 5000: with the relative step the columns' steps are 1e-6 and 5e-3. One
     * step for the whole group would move the small elements by 5e-3·w, a truncation error near 1e-5 of their
     * derivative, and the group would fail its screen and be recomputed; with each column moved by its own step
     * times its weight the group passes in one stencil's evaluations.
     */
    @Test
    void aGroupMovesEachColumnByItsOwnStep() throws Exception {
        String mixed = """
                op: tanh
                inputs:
                  x: {shape: [1, 4], init: {values: [[0.5, -0.3, 5000, 0.7]]}}
                """;
        CheckResult right = check(mixed, f -> f);
        assertEquals(Status.PASSED, right.status(), right.toString());
        assertEquals(4 + 2, jacobianRows(right).get(0).evaluations(), "4 backward passes, one group of columns");
        assertEquals(0, compress(mixed, f -> f).blocks().recomputedGroups(), "the group passes its screen");
        Corruption scaledBackward = f -> Functions.withBackward(f, Functions.scaledBy(1 + 1e-3));
        CheckResult scaled = check(mixed, scaledBackward);
        CheckResult scaledDense = check(mixed + "compress: false\n", scaledBackward);
        assertEquals(Status.FAILED, scaled.status(), scaled.toString());
        assertEquals(jacobianRows(scaledDense).get(0).maxScore(), jacobianRows(scaled).get(0).maxScore(), 0);
        // the failing target is reported from dense values: compression's own finding is held to them here
        GradientResult dense = jacobianRows(scaledDense).get(0);
        assertJudgedAsDense(dense, compress(mixed, scaledBackward).row(dense), "compressed, scaled by 1 + 1e-3");
    }

    @Test
    void withoutRandomWeightsASwapInsideAGroupWouldPass() throws Exception {
        // the premise of the permutation cases: every column of tanh's Jacobian is in one group, and the plain sum
        // of the columns of a gradient with two entries swapped is the plain sum of the right columns
        OpSpec spec = Specs.parse(TANH);
        DrawnInputs x = DrawnInputs.draw(spec, spec.seed());
        try (Differentiable right = BUILDER.build(spec, x.test())) {
            Differentiable wrong = swapGradient("x", 3, 7).apply(right);
            Map<String, INDArray> zeros = Map.of("0", Nd4j.zeros(org.nd4j.linalg.api.buffer.DataType.DOUBLE, 4, 4));
            double[][] a = new double[16][];
            for (int r = 0; r < 16; r++) {
                a[r] = new AnalyticJacobian(wrong, x.test(), zeros, List.of("0"), List.of("x"))
                        .evaluate("0", new int[] {r}, new double[] {1}).get("x");
            }
            int[][] supports = new int[16][];
            for (int c = 0; c < 16; c++) {
                int col = c;
                supports[c] = java.util.stream.IntStream.range(0, 16).filter(r -> a[r][col] != 0).toArray();
            }
            assertEquals(1, Colouring.groups(supports, 16).length, "the swapped columns still share one group");
            Counter evals = new Counter();
            NumericalDerivative d = new NumericalDerivative(right, x.reference(), right.forward(x.reference()),
                    List.of("0"), new NumericalDerivative.Scheme(dev.gradcheck.result.Stencil.CENTRAL,
                            new Step(1e-6, false)), evals);
            double[] ones = new double[16];
            java.util.Arrays.fill(ones, 1);
            int[] all = java.util.stream.IntStream.range(0, 16).toArray();
            double[] numericalSum = d.along(Map.of("x", Nd4j.createFromArray(ones).reshape(4, 4))).get("0");
            for (int r = 0; r < 16; r++) {
                double analyticSum = 0;
                for (int c : all) {
                    analyticSum += a[r][c];
                }
                assertEquals(numericalSum[r], analyticSum, 1e-8, "row " + r + ": unweighted, the swap cancels");
            }
        }
        assertNotEquals(Status.PASSED, check(TANH, swapGradient("x", 3, 7)).status(), "weighted, it does not");
    }

    @Test
    void groupsShareNoPositionAndCoverEveryLineOnce() {
        // matmul's output rows (i, j) depend on a[i, ·] and b[·, j]: rows of distinct i and j share a backward
        int n = 5;
        int m = 7;
        int[][] supports = new int[n * m][];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < m; j++) {
                supports[i * m + j] = new int[] {i, n + j};
            }
        }
        int[][] groups = Colouring.groups(supports, n + m);
        // a row meets n - 1 + m - 1 others, so first-fit needs at most n + m - 1 groups; at least max(n, m) exist
        // (here 8, where 7 is the least possible)
        assertTrue(groups.length >= Math.max(n, m) && groups.length <= n + m - 1, Colouring.describe(groups));
        boolean[] seen = new boolean[n * m];
        for (int[] group : groups) {
            boolean[] used = new boolean[n + m];
            for (int line : group) {
                assertTrue(!seen[line], "line " + line + " in one group only");
                seen[line] = true;
                for (int p : supports[line]) {
                    assertTrue(!used[p], "position " + p + " twice in one group");
                    used[p] = true;
                }
            }
        }
        for (boolean s : seen) {
            assertTrue(s);
        }
        assertEquals(1, Colouring.groups(new int[][] {{0}, {1}, {2}, {}}, 3).length, "a diagonal is one group");
    }

    @Test
    void aSparseBlockComparesAsItsDenseBlock() {
        long[] shape = {2, 3};
        SparseBlock.Builder b = new SparseBlock.Builder(shape, shape);
        b.add(4, 1, 2.0, 2.0 + 3e-6, 0); // added out of order, as a compressed numerical side adds them
        b.add(1, 1, 1.0, 1.0, 0);
        b.add(1, 0, 0.5, 0.5 + 1e-9, 0);
        SparseBlock sparse = b.build();
        assertEquals(4, sparse.size(), "(0, 0) is listed too");
        Jacobian[] dense = sparse.dense();
        dev.gradcheck.spec.Tolerance tol = new dev.gradcheck.spec.Tolerance.MaxRelative(1e-6);
        JacobianComparison.Criteria criteria = new JacobianComparison.Criteria(tol, 1e-6, 1);
        JacobianComparison.Row fromDense = JacobianComparison.compare(dense[0], dense[1], NumericalError.NONE,
                EntryFilter.NONE, criteria);
        JacobianComparison.Row fromSparse = JacobianComparison.compare(sparse, criteria);
        assertEquals(Verdict.MISMATCH, fromSparse.verdict());
        assertEquals(fromDense.verdict(), fromSparse.verdict());
        assertEquals(fromDense.maxAbs(), fromSparse.maxAbs(), 0);
        assertEquals(fromDense.maxRel(), fromSparse.maxRel(), 0);
        assertEquals(fromDense.maxScore(), fromSparse.maxScore(), 0);
        assertArrayEquals(fromDense.worst().outputIndex(), fromSparse.worst().outputIndex());
        assertArrayEquals(fromDense.worst().inputIndex(), fromSparse.worst().inputIndex());
        assertArrayEquals(new long[] {1, 1}, fromSparse.worst().outputIndex());
        assertArrayEquals(new long[] {0, 1}, fromSparse.worst().inputIndex());
        // a block of zeros names its first element, as the dense comparison does
        SparseBlock zeros = new SparseBlock.Builder(shape, shape).build();
        assertArrayEquals(new long[] {0, 0}, JacobianComparison.compare(zeros, criteria).worst().outputIndex());
    }

    /** What compression finds on its own, before a failing block sends the target to dense mode. */
    private record Findings(CompressedJacobians.Blocks blocks, Map<String, JacobianComparison.Row> rows) {

        /** Findings's own row for the block a report row names. */
        JacobianComparison.Row row(GradientResult block) {
            return rows.get(block.output() + "/" + block.input());
        }
    }

    /** The spec's blocks computed and compared as compressed full mode computes and compares them. */
    private static Findings compress(String yaml, Corruption corruption) throws Exception {
        OpSpec spec = Specs.parse(yaml);
        Settings s = Settings.of(spec);
        DrawnInputs x = DrawnInputs.draw(spec, s.seed());
        try (Differentiable f = corruption.apply(BUILDER.build(spec, x.test()));
             ParallelLines threads = new ParallelLines(s.threads())) {
            Map<String, INDArray> atX = f.forward(x.test());
            List<String> outputs = OutputSelection.select(spec, f.outputNames(), atX);
            CheckTarget t = new CheckTarget(1, f, f, x.test(), x.reference(), spec.check(), outputs, atX, atX,
                    f.affineInputs());
            FullCheck.Compression compressed = FullCheck.compress(t, s, spec.check(), threads);
            Map<String, JacobianComparison.Row> rows = new HashMap<>();
            for (String out : outputs) {
                for (String in : spec.check()) {
                    rows.put(out + "/" + in, compressed.compare(out, in, s, t.scale(out)));
                }
            }
            return new Findings(compressed.blocks(), rows);
        }
    }

    public static CheckResult check(String yaml, Corruption corruption) {
        return new GradientChecker((spec, inputs) -> corruption.apply(BUILDER.build(spec, inputs)), "cpu")
                .check(Specs.parse(yaml));
    }

    public static List<GradientResult> jacobianRows(CheckResult r) {
        return r.gradients().stream().filter(g -> g.kind() == CheckKind.JACOBIAN).toList();
    }

    /** A wrong backward made from a right one. */
    @FunctionalInterface
    public interface Corruption extends UnaryOperator<Differentiable> {}

    /** The gradient of {@code input} passed through {@code change}, which also sees the cotangents. */
    private static Differentiable changeGradient(Differentiable f, String input,
                                                 java.util.function.BiFunction<INDArray, Map<String, INDArray>,
                                                         INDArray> change) {
        return new Functions.Delegate(f) {
            @Override
            public Map<String, INDArray> vjp(Map<String, INDArray> in, Map<String, INDArray> ct, List<String> wrt) {
                Map<String, INDArray> g = new HashMap<>(f.vjp(in, ct, wrt));
                if (g.containsKey(input)) {
                    g.put(input, change.apply(g.get(input).dup(), ct));
                }
                return g;
            }
        };
    }

    /** Entries i and j of the flat gradient of {@code input} trade places (columns i and j of its Jacobian). */
    public static Corruption swapGradient(String input, int i, int j) {
        return f -> changeGradient(f, input, (g, ct) -> {
            INDArray flat = g.reshape(g.length());
            double gi = flat.getDouble(i);
            flat.putScalar(i, flat.getDouble(j));
            flat.putScalar(j, gi);
            return flat.reshape(g.shape());
        });
    }

    /** Rows i and j of every Jacobian of {@code output} trade places: the backward reads the wrong cotangent. */
    public static Corruption swapCotangent(String output, int i, int j) {
        return f -> new Functions.Delegate(f) {
            @Override
            public Map<String, INDArray> vjp(Map<String, INDArray> in, Map<String, INDArray> ct, List<String> wrt) {
                Map<String, INDArray> swapped = new HashMap<>(ct);
                INDArray c = ct.get(output).dup();
                INDArray flat = c.reshape(c.length());
                double ci = flat.getDouble(i);
                flat.putScalar(i, flat.getDouble(j));
                flat.putScalar(j, ci);
                swapped.put(output, flat.reshape(c.shape()));
                return f.vjp(in, swapped, wrt);
            }
        };
    }

    /** d output[row] / d input[col] gains {@code eps} where the true derivative is 0. */
    public static Corruption addOutside(String input, String output, int row, int col, double eps) {
        return f -> changeGradient(f, input, (g, ct) -> {
            INDArray flat = g.reshape(g.length());
            flat.putScalar(col, flat.getDouble(col) + eps * ct.get(output).reshape(-1).getDouble(row));
            return flat.reshape(g.shape());
        });
    }

    /** d output[row] / d input[col] multiplied by 1 + rel, every other entry right. */
    public static Corruption oneElementOff(String input, String output, int row, int col, double rel) {
        return f -> new Functions.Delegate(f) {
            private Double entry;

            @Override
            public Map<String, INDArray> vjp(Map<String, INDArray> in, Map<String, INDArray> ct, List<String> wrt) {
                if (entry == null) { // the true entry, from a one-hot backward pass at these inputs
                    Map<String, INDArray> oneHot = new HashMap<>();
                    ct.forEach((k, v) -> oneHot.put(k, v.like().assign(0)));
                    oneHot.get(output).reshape(-1).putScalar(row, 1);
                    entry = f.vjp(in, oneHot, List.of(input)).get(input).reshape(-1).getDouble(col);
                }
                Map<String, INDArray> g = new HashMap<>(f.vjp(in, ct, wrt));
                if (!g.containsKey(input)) {
                    return g; // a backward asked for other inputs' gradients only
                }
                INDArray flat = g.get(input).dup().reshape(-1);
                flat.putScalar(col, flat.getDouble(col) + rel * entry * ct.get(output).reshape(-1).getDouble(row));
                g.put(input, flat.reshape(g.get(input).shape()));
                return g;
            }
        };
    }

    /** The gradient of {@code input}, whose first two dimensions are n x n, transposed. */
    public static Corruption transposed(String input, int n) {
        return f -> changeGradient(f, input, (g, ct) -> g.reshape(n, n).transpose().dup('c').reshape(g.shape()));
    }
}
