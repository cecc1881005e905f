package dev.gradcheck.check;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.check.dense.BlockDiagnosis;
import dev.gradcheck.check.numeric.EntryFilter;
import dev.gradcheck.check.numeric.Jacobian;
import dev.gradcheck.op.Differentiable;
import dev.gradcheck.op.Nd4jOpBuilder;
import dev.gradcheck.op.catalog.OpCatalog;
import dev.gradcheck.result.BlockJacobians;
import dev.gradcheck.result.CheckKind;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.EntryRegion;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.result.JacobianCapture;
import dev.gradcheck.result.Mismatches;
import dev.gradcheck.result.Status;
import dev.gradcheck.result.Verdict;
import dev.gradcheck.spec.Tolerance;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * What a failing block says beyond its worst entry: the mismatch count, where the mismatches lie, the worst few,
 * where each side is nonzero; and the matrices, when the run asks for them.
 */
class DiagnosisTest {

    /** examples/linear-op's bug: y = x·Wᵀ + b over a batch of 4, the bias gradient only from batch row 0. */
    static final String LINEAR = """
            op: linear
            inputs:
              x: {shape: [4, 3], init: {uniform: [-1, 1]}}
              W: {shape: [2, 3], init: {uniform: [-1, 1]}}
              b: {shape: [2], init: {uniform: [-1, 1]}}
            """;

    static Differentiable linearWithBuggyBias() {
        return new Differentiable() {
            @Override
            public List<String> inputNames() {
                return List.of("x", "W", "b");
            }

            @Override
            public List<String> outputNames() {
                return List.of("y");
            }

            @Override
            public Map<String, INDArray> forward(Map<String, INDArray> in) {
                return Map.of("y", in.get("x").mmul(in.get("W").transpose()).addiRowVector(in.get("b")));
            }

            @Override
            public Map<String, INDArray> vjp(Map<String, INDArray> in, Map<String, INDArray> ct, List<String> wrt) {
                INDArray gy = ct.get("y");
                Map<String, INDArray> g = new HashMap<>();
                g.put("x", gy.mmul(in.get("W")));
                g.put("W", gy.transpose().mmul(in.get("x")));
                g.put("b", gy.getRow(0).dup()); // BUG: should be gy.sum(0)
                g.keySet().retainAll(wrt);
                return g;
            }
        };
    }

    private static CheckResult check(String yaml, FunctionFactory factory, JacobianCapture capture) {
        return new GradientChecker(factory, "test").check(Specs.parse(yaml), capture);
    }

    private static GradientResult block(CheckResult r, String output, String input) {
        return r.rowsOf(CheckKind.JACOBIAN).stream().filter(g -> g.output().equals(output) && g.input().equals(input))
                .findFirst().orElseThrow();
    }

    @Test
    void theBiasBugIsSixOfSixteenEntriesExactlyInBatchRowsOneToThree() {
        CheckResult r = check(LINEAR, (s, in) -> linearWithBuggyBias(), JacobianCapture.NONE);
        assertEquals(Status.FAILED, r.status(), r.toString());
        Mismatches m = block(r, "y", "b").mismatches();
        assertEquals(6, m.count());
        assertEquals(16, m.judged());
        assertEquals(0, m.masked());
        assertEquals(new EntryRegion(List.of("1-3", "i"), List.of("i"), true), m.region(),
                "rows 1-3 of the batch, each output tied to its own bias element, and nothing else");
        assertEquals(3, m.worst().size());
        assertArrayEquals(new long[] {1, 0}, m.worst().get(0).outputIndex(), "the block's worst entry comes first");
        assertEquals(0.0, m.worst().get(0).analytic());
        assertEquals(1.0, m.worst().get(0).numerical(), 1e-8);
        // the backward reaches batch row 0 only, where the numerical side is nonzero in every row
        assertEquals(2, m.analyticNonzero().count());
        assertEquals(List.of("0", "i"), m.analyticNonzero().region().output());
        assertEquals(8, m.numericalNonzero().count());
        assertEquals(List.of(":", "i"), m.numericalNonzero().region().output());
        // the correct blocks count their entries too, and none mismatches
        Mismatches dx = block(r, "y", "x").mismatches();
        assertEquals(0, dx.count());
        assertEquals(8 * 12, dx.judged());
        assertNull(dx.region());
        assertNull(block(r, "y", "b").jacobians(), "an ordinary run ships no matrices");
    }

    @Test
    void aWrongScaleOnAnElementwiseBlockIsTheDiagonal() {
        CheckResult r = check(GradientCheckerTest.SPEC, (s, in) -> Functions.withBackward(Functions.squareAndDot(),
                Functions.scaledBy(1.01)), JacobianCapture.NONE);
        Mismatches m = block(r, "0", "x").mismatches();
        assertEquals(6, m.count(), "the six diagonal entries of a [2, 3] -> [2, 3] elementwise block");
        assertEquals(36, m.judged());
        EntryRegion region = m.region();
        assertTrue(region.exact() && region.diagonal(), region.toString());
        assertEquals(List.of("i", "j"), region.output());
        assertNull(m.analyticNonzero(), "both sides are nonzero at the same entries: nothing to add");
    }

    @Test
    void aRolledGradientIsSpreadWithoutAPattern() {
        CheckResult r = check(GradientCheckerTest.SPEC, (s, in) -> Functions.withBackward(Functions.squareAndDot(),
                Functions.rolled()), JacobianCapture.NONE);
        Mismatches m = block(r, "1", "w").mismatches();
        assertEquals(6, m.count(), "every entry of the row d out1 / d w has moved");
        assertTrue(m.region().wholeBlock() && m.region().exact(), m.region().toString());
    }

    @Test
    void matrixInverseIsWrongEverywhereAndItsBackwardIsZeroOffTheDiagonal() {
        CheckResult r = new GradientChecker(new Nd4jOpBuilder(OpCatalog.nd4j())::build, "cpu").check(Specs.parse("""
                op: matrix_inverse
                inputs:
                  x: {shape: [3, 3]}
                """));
        assertEquals(Status.FAILED, r.status(), "ND4J's matrix_inverse backward is wrong (docs/nd4j-findings.md)");
        Mismatches m = block(r, "0", "x").mismatches();
        assertEquals(81, m.count());
        assertTrue(m.region().wholeBlock() && m.region().exact());
        assertEquals(9, m.analyticNonzero().count(), "the analytic block is diagonal: the backward acts elementwise");
        assertTrue(m.analyticNonzero().region().diagonal() && m.analyticNonzero().region().exact());
        assertEquals(81, m.numericalNonzero().count());
    }

    @Test
    void eluWithoutAlphaFailsAndTheResultNamesAlphaAsLeftAtItsDefault() {
        GradientChecker checker = new GradientChecker(new Nd4jOpBuilder(OpCatalog.nd4j())::build, "cpu");
        CheckResult defaulted = checker.check(Specs.parse("op: elu\ninputs:\n  x: {shape: [3, 4]}\n"));
        assertEquals(Status.FAILED, defaulted.status(), "ND4J's elu forward takes alpha 1, its backward 0");
        assertEquals(List.of("alpha"), defaulted.defaultedAttributes());
        CheckResult given = checker.check(Specs.parse("op: elu\nattrs: {alpha: 1.0}\ninputs:\n  x: {shape: [3, 4]}\n"));
        assertEquals(Status.PASSED, given.status(), given.toString());
        assertEquals(List.of(), given.defaultedAttributes());
    }

    @Test
    void aGraphNamesItsNodesAttributesLeftAtDefault() {
        CheckResult r = new GradientChecker(new Nd4jOpBuilder(OpCatalog.nd4j())::build, "cpu").check(Specs.parse(
                "graph:\n  - {op: elu, in: [x], out: h}\n  - {op: softmax, in: [h], out: y, attrs: {dimension: 1}}\n"
                        + "inputs:\n  x: {shape: [2, 3]}\n"));
        assertEquals(Status.FAILED, r.status(), r.toString());
        assertEquals(List.of("h: alpha"), r.defaultedAttributes(), "softmax's dimension was given, dataType is a type");
    }

    @Test
    void aRunThatAsksGetsTheFailingBlocksMatricesWithEachEntrysMark() {
        CheckResult r = check(LINEAR, (s, in) -> linearWithBuggyBias(), JacobianCapture.FAILING);
        BlockJacobians j = block(r, "y", "b").jacobians();
        assertNotNull(j);
        assertNull(block(r, "y", "x").jacobians(), "FAILING leaves passing blocks out");
        assertArrayEquals(new long[] {4, 2}, j.outputShape());
        assertArrayEquals(new long[] {2}, j.inputShape());
        assertEquals(8, j.rowCount());
        assertEquals(2, j.colCount());
        int mismatched = 0;
        for (int row = 0; row < 8; row++) {
            for (int col = 0; col < 2; col++) {
                boolean diagonal = row % 2 == col;
                assertEquals(diagonal ? 1.0 : 0.0, j.numerical()[row][col], 1e-8);
                assertEquals(diagonal && row < 2 ? 1.0 : 0.0, j.analytic()[row][col]);
                mismatched += j.mark(row, col) == BlockJacobians.MISMATCH ? 1 : 0;
                assertEquals(diagonal && row >= 2, j.mark(row, col) == BlockJacobians.MISMATCH);
            }
        }
        assertEquals(6, mismatched);
        CheckResult all = check(LINEAR, (s, in) -> linearWithBuggyBias(), JacobianCapture.ALL);
        assertNotNull(block(all, "y", "x").jacobians(), "ALL carries passing blocks too");
    }

    // ---- the region finder on hand-made blocks ----

    private static Mismatches diagnose(double[][] analytic, double[][] numerical, long[] out, long[] in) {
        Jacobian a = new Jacobian(out, in, analytic);
        Jacobian n = new Jacobian(out, in, numerical);
        Tolerance tol = new Tolerance.MaxRelative(1e-6);
        return BlockDiagnosis.of(a, n, EntryFilter.NONE, EntryFilter.NONE,
                (r, c) -> tol.score(a.values()[r][c], n.values()[r][c]), 0);
    }

    @Test
    void aSingleColumnIsNamedAsThatInputElement() {
        double[][] n = {{1, 2, 3}, {4, 5, 6}};
        double[][] a = {{1, 9, 3}, {4, 9, 6}};
        Mismatches m = diagnose(a, n, new long[] {2}, new long[] {3});
        assertEquals(2, m.count());
        assertEquals(new EntryRegion(List.of(":"), List.of("1"), true), m.region());
    }

    @Test
    void scatteredEntriesAreNotAnExactRegion() {
        double[][] n = {{1, 1, 1, 1}, {1, 1, 1, 1}, {1, 1, 1, 1}, {1, 1, 1, 1}};
        double[][] a = {{1, 2, 1, 1}, {1, 1, 1, 1}, {2, 1, 1, 1}, {1, 1, 1, 2}};
        Mismatches m = diagnose(a, n, new long[] {4}, new long[] {4});
        assertEquals(3, m.count());
        assertEquals(new EntryRegion(List.of("{0, 2-3}"), List.of("{0-1, 3}"), false), m.region(),
                "rows and columns as sets, no tie (the indices differ), and only 3 of the 9 entries there");
    }

    @Test
    void entriesOnPartOfTheDiagonalAreATieOverThoseIndices() {
        double[][] n = {{1, 1, 1, 1}, {1, 1, 1, 1}, {1, 1, 1, 1}, {1, 1, 1, 1}};
        double[][] a = {{2, 1, 1, 1}, {1, 1, 1, 1}, {1, 1, 2, 1}, {1, 1, 1, 2}};
        Mismatches m = diagnose(a, n, new long[] {4}, new long[] {4});
        assertEquals(new EntryRegion(List.of("i={0, 2-3}"), List.of("i={0, 2-3}"), true), m.region());
    }

    @Test
    void aNanCountsAsAMismatchAndIsTheWorst() {
        double[][] n = {{1, 1}, {1, 1}};
        double[][] a = {{1, 3}, {Double.NaN, 1}};
        Mismatches m = diagnose(a, n, new long[] {2}, new long[] {2});
        assertEquals(2, m.count());
        assertTrue(Double.isNaN(m.worst().get(0).analytic()), "NaN first");
        assertArrayEquals(new long[] {1}, m.worst().get(0).outputIndex());
    }

    @Test
    void indicesAreRunsSetsOrACount() {
        assertEquals(":", BlockDiagnosis.indices(new boolean[] {true, true}));
        assertEquals("2", BlockDiagnosis.indices(new boolean[] {false, false, true}));
        assertEquals("1-3", BlockDiagnosis.indices(new boolean[] {false, true, true, true}));
        assertEquals("{0, 4-5}", BlockDiagnosis.indices(new boolean[] {true, false, false, false, true, true}));
        boolean[] scattered = new boolean[30];
        for (int i = 0; i < 30; i += 3) {
            scattered[i] = true;
        }
        assertEquals("(10 of 30)", BlockDiagnosis.indices(scattered));
        assertFalse(BlockDiagnosis.indices(scattered).contains(":"));
    }

    @Test
    void aPassingCheckHasZeroMismatchesAndVerdictPass() {
        CheckResult r = check(GradientCheckerTest.SPEC, (s, in) -> Functions.squareAndDot(), JacobianCapture.NONE);
        for (GradientResult g : r.rowsOf(CheckKind.JACOBIAN)) {
            assertEquals(Verdict.PASS, g.verdict());
            assertEquals(0, g.mismatches().count());
            assertTrue(g.mismatches().worst().isEmpty());
        }
    }
}
