package dev.gradcheck.check;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.check.colouring.CompressedJacobiansTest;
import dev.gradcheck.check.colouring.CompressedJacobiansTest.Corruption;
import dev.gradcheck.check.numeric.Flat;
import dev.gradcheck.result.CheckKind;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.result.Status;
import dev.gradcheck.result.Verdict;
import dev.gradcheck.result.WorstElement;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Fast mode narrowing a failing projection to the entries that make it fail, where a full recheck would cost more
 * than {@code FastTuning.RECHECK_IN_FULL_UP_TO} evaluations: a wrong entry at a random position is named with
 * dense mode's index and values, two are both named, a backward wrong everywhere stops at its limit saying "at
 * least", a small input under many outputs (whose failing recheck is dense) is narrowed too, and a right backward
 * is never narrowed.
 */
class FastNarrowingTest {

    /** conv2d SAME, NCHW (ND4J's isNCHW: 0), 8 channels on 32 x 32: 8192 inputs and outputs in x's block. */
    private static final String CONV = """
            op: conv2d
            attrs: {kH: 3, kW: 3, sH: 1, sW: 1, pH: 0, pW: 0, dH: 1, dW: 1, isSameMode: 1, isNCHW: 0}
            inputs:
              x: {shape: [1, 8, 32, 32], init: {uniform: [-1, 1]}}
              w: {shape: [3, 3, 8, 8], init: {uniform: [-1, 1]}}
            """;

    private static final String MATMUL = """
            op: matmul
            inputs:
              a: {shape: [96, 96], init: {uniform: [0.5, 1.5]}}
              b: {shape: [96, 96], init: {uniform: [0.5, 1.5]}}
            """;

    private static final String TANH = """
            op: tanh
            inputs:
              x: {shape: [128, 128], init: {uniform: [-1, 1]}}
            """;

    /**
     * A bias under many outputs: b's 64 columns cost 128 forwards, but a failing block is rechecked dense, with a
     * backward pass for each of the 4,096 outputs and its columns probed.
     */
    private static final String BIAS = """
            op: biasadd
            attrs: {nchw: true}
            inputs:
              x: {shape: [64, 64], init: {uniform: [-1, 1]}}
              b: {shape: [64], init: {uniform: [-1, 1]}}
            """;

    /** An entry of the convolution's x block that is not zero: an output and the input under its kernel's centre. */
    private static int[] convEntry(SplittableRandom random) {
        int pixel = random.nextInt(32 * 32);
        return new int[] {random.nextInt(8) * 1024 + pixel, random.nextInt(8) * 1024 + pixel};
    }

    /** An entry of matmul's a block that is not zero: d out[i, k] / d a[i, l] = b[l, k]. */
    private static int[] matmulEntry(SplittableRandom random) {
        int i = random.nextInt(96);
        return new int[] {i * 96 + random.nextInt(96), i * 96 + random.nextInt(96)};
    }

    @Test
    void aWrongEntryAtARandomPositionOfAConvolutionIsNamedAsDenseModeNamesIt() {
        int[] at = convEntry(new SplittableRandom(34));
        assertNamedAsInDenseMode(CONV, "x", CompressedJacobiansTest.oneElementOff("x", "0", at[0], at[1], 0.5));
    }

    @Test
    void aWrongEntryAtARandomPositionOfAMatmulIsNamedAsDenseModeNamesIt() {
        int[] at = matmulEntry(new SplittableRandom(35));
        assertNamedAsInDenseMode(MATMUL, "a", CompressedJacobiansTest.oneElementOff("a", "0", at[0], at[1], 0.5));
    }

    private static void assertNamedAsInDenseMode(String yaml, String input, Corruption wrong) {
        GradientResult dense = CompressedJacobiansTest.jacobianRows(CompressedJacobiansTest.check(yaml, wrong))
                .stream().filter(g -> g.input().equals(input)).findFirst().orElseThrow();
        assertEquals(Verdict.MISMATCH, dense.verdict());
        assertEquals(1, dense.mismatches().count(), "one entry wrong: " + dense);
        CheckResult r = CompressedJacobiansTest.check(yaml + "mode: fast\n", wrong);
        assertEquals(Status.FAILED, r.status(), r.toString());
        GradientResult fast = fastRow(r, input);
        assertEquals(Verdict.MISMATCH, fast.verdict());
        assertNotNull(fast.mismatches(), "narrowed to its entries: " + fast);
        assertEquals(1, fast.mismatches().count(), fast.note());
        assertArrayEquals(dense.worst().outputIndex(), fast.worst().outputIndex(), fast.note());
        assertArrayEquals(dense.worst().inputIndex(), fast.worst().inputIndex(), fast.note());
        assertEquals(dense.worst().analytic(), fast.worst().analytic(), 1e-9 * Math.abs(dense.worst().analytic()));
        assertEquals(dense.worst().numerical(), fast.worst().numerical(), 1e-6 * Math.abs(dense.worst().numerical()));
        assertTrue(fast.note().contains("at least 1 entry mismatches") && fast.note().contains("not rechecked"),
                fast.note());
        assertTrue(r.rowsOf(CheckKind.JACOBIAN).stream().noneMatch(g -> g.input().equals(input)),
                "no full recheck of " + input + ": " + r);
    }

    @Test
    void aMaskedWrongEntryIsReachedButNeverNamed() {
        int[] at = convEntry(new SplittableRandom(37));
        long[] shape = {1, 8, 32, 32};
        String mask = "mask: ['out" + java.util.Arrays.toString(Flat.unravel(at[0], shape)) + " / x"
                + java.util.Arrays.toString(Flat.unravel(at[1], shape)) + "']\n";
        Corruption wrong = CompressedJacobiansTest.oneElementOff("x", "0", at[0], at[1], 0.5);
        // a mask of one entry cannot be projected: the projection fails, narrowing reaches that entry alone
        GradientResult x = fastRow(CompressedJacobiansTest.check(CONV + "mode: fast\n" + mask, wrong), "x");
        assertNull(x.mismatches(), x.toString());
        assertTrue(x.note().contains("narrowing it by halving u and v named no entry (1 judged alone"), x.note());
        GradientResult unmasked = fastRow(CompressedJacobiansTest.check(CONV + "mode: fast\n", wrong), "x");
        assertEquals(1, unmasked.mismatches().count(), "the same entry unmasked is named: " + unmasked.note());
    }

    @Test
    void twoWrongEntriesAreBothNamed() {
        SplittableRandom random = new SplittableRandom(36);
        int[] first = convEntry(random);
        int[] second = convEntry(random);
        Corruption one = CompressedJacobiansTest.oneElementOff("x", "0", first[0], first[1], 0.5);
        Corruption two = CompressedJacobiansTest.oneElementOff("x", "0", second[0], second[1], -0.7);
        CheckResult r = CompressedJacobiansTest.check(CONV + "mode: fast\n", f -> two.apply(one.apply(f)));
        GradientResult fast = fastRow(r, "x");
        assertEquals(2, fast.mismatches().count(), fast.note());
        List<WorstElement> named = fast.mismatches().worst();
        for (int[] at : List.of(first, second)) {
            assertTrue(named.stream().anyMatch(w -> java.util.Arrays.equals(w.outputIndex(),
                    Flat.unravel(at[0], new long[] {1, 8, 32, 32})) && java.util.Arrays.equals(w.inputIndex(),
                    Flat.unravel(at[1], new long[] {1, 8, 32, 32}))), "entry " + at[0] + ", " + at[1] + " named: "
                    + fast.note());
        }
    }

    @Test
    void aBackwardWrongEverywhereStopsAtItsLimitSayingAtLeast() {
        CheckResult r = CompressedJacobiansTest.check(TANH + "mode: fast\n",
                f -> Functions.withBackward(f, Functions.scaledBy(1 + 1e-3)));
        assertEquals(Status.FAILED, r.status(), r.toString());
        GradientResult fast = fastRow(r, "x");
        assertEquals(8, fast.mismatches().count(), fast.note());
        assertTrue(fast.note().contains("at least 8 entries mismatch judged alone, where narrowing stopped at its"
                + " limit"), fast.note());
        assertTrue(fast.evaluations() < 1000, "no blow-up: " + fast.evaluations() + " evaluations");
        for (WorstElement w : fast.mismatches().worst()) {
            assertArrayEquals(w.outputIndex(), w.inputIndex(), "tanh's entries are on the diagonal");
            assertEquals(w.numerical() * (1 + 1e-3), w.analytic(), 1e-8 * Math.abs(w.analytic()));
        }
    }

    @Test
    void aSmallInputUnderManyOutputsIsNarrowedRatherThanRecheckedDense() {
        CheckResult r = CompressedJacobiansTest.check(BIAS + "mode: fast\n",
                f -> Functions.withBackward(f, Functions.scaledBy(2)));
        assertEquals(Status.FAILED, r.status(), r.toString());
        GradientResult b = fastRow(r, "b");
        assertEquals(8, b.mismatches().count(), b.note());
        assertTrue(b.evaluations() < 1000, "no dense recheck: " + b.evaluations() + " evaluations");
        for (WorstElement w : b.mismatches().worst()) {
            assertEquals(2 * w.numerical(), w.analytic(), 1e-6 * Math.abs(w.analytic()), b.note());
        }
        assertTrue(r.rowsOf(CheckKind.JACOBIAN).isEmpty(), "nothing rechecked in full: " + r);
    }

    @Test
    void aRightBackwardIsNeverNarrowed() {
        for (String yaml : List.of(CONV, MATMUL, TANH, BIAS)) {
            CheckResult r = CompressedJacobiansTest.check(yaml + "mode: fast\n", f -> f);
            assertEquals(Status.PASSED, r.status(), r.toString());
            for (GradientResult g : r.rowsOf(CheckKind.FAST)) {
                assertNull(g.mismatches(), g.toString());
                assertTrue(g.note() == null || !g.note().contains("narrow"), g.note());
            }
        }
    }

    private static GradientResult fastRow(CheckResult r, String input) {
        return r.rowsOf(CheckKind.FAST).stream().filter(g -> g.input().equals(input)).findFirst()
                .orElseThrow(() -> new AssertionError("no fast row of " + input + ": " + r));
    }
}
