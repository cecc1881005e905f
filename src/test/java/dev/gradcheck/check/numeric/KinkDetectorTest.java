package dev.gradcheck.check.numeric;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.result.Stencil;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A probe evaluates ±2h only where a row's leftover over the half step could be a kink's (or the five-point stencil
 * needs them): along a smooth line it makes 4 forward evaluations and gives the values and half-step errors the
 * stencil's points give; a kink at x, right or wrong, is still found with all 6.
 */
class KinkDetectorTest {

    private static final double H = 1e-6;

    /** y_j(t) = 3 + c_j·t + t³ + jump_j·|t − at|, recording where it was evaluated (t = 0 included). */
    private record Line(double[] c, double[] jump, double at, List<Double> calls) implements KinkDetector.Line {

        Line(double[] c, double[] jump, double at) {
            this(c, jump, at, new ArrayList<>());
        }

        @Override
        public double[] at(double t) {
            calls.add(t);
            double[] y = new double[c.length];
            for (int j = 0; j < y.length; j++) {
                y[j] = 3 + c[j] * t + t * t * t + jump[j] * Math.abs(t - at);
            }
            return y;
        }

        boolean evaluatedAt(double t) {
            return calls.contains(t);
        }
    }

    private static KinkDetector.Probe probe(Line line, double[] analytic, Stencil stencil) {
        int[] rows = new int[line.c().length];
        for (int j = 0; j < rows.length; j++) {
            rows[j] = j;
        }
        return KinkDetector.probe(line, H, rows, analytic, 3, stencil);
    }

    @Test
    void aSmoothLineIsProbedWithinPlusMinusHAndGivesItsStencilsValues() {
        Line line = new Line(new double[] {0.5, -2e-3}, new double[2], 0);
        KinkDetector.Probe p = probe(line, new double[] {0.5, -2e-3}, Stencil.CENTRAL);
        assertEquals(KinkDetector.Kind.SMOOTH, p.kind());
        assertArrayEquals(new boolean[2], p.kinks());
        assertFalse(line.evaluatedAt(2 * H) || line.evaluatedAt(-2 * H), line.calls().toString());
        for (int j = 0; j < 2; j++) {
            double atH = (line.at(H)[j] - line.at(-H)[j]) / (2 * H);
            double atHalf = (line.at(H / 2)[j] - line.at(-H / 2)[j]) / H;
            assertEquals(atH, p.values()[j], 0, "row " + j);
            assertEquals(NumericalError.fromHalfStep(Stencil.CENTRAL, atH, atHalf), p.errors()[j], 0, "row " + j);
            assertEquals((line.at(0)[j] - line.at(-H / 2)[j]) / (H / 2), p.slopeMinus()[j], 0, "row " + j);
            assertEquals((line.at(H / 2)[j] - line.at(0)[j]) / (H / 2), p.slopePlus()[j], 0, "row " + j);
        }
    }

    @Test
    void aKinkAtXIsFoundWithAllSixPointsAndASubgradientIsNoMismatch() {
        Line line = new Line(new double[] {0.5, 1}, new double[] {0, 0.5}, 0); // row 1: slopes 0.5 and 1.5
        KinkDetector.Probe p = probe(line, new double[] {0.5, 1.5}, Stencil.CENTRAL);
        assertTrue(line.evaluatedAt(2 * H) && line.evaluatedAt(-2 * H), line.calls().toString());
        assertArrayEquals(new boolean[] {false, true}, p.kinks());
        assertEquals(KinkDetector.Kind.KINK, p.kind());
    }

    @Test
    void aWrongValueAtAKinkIsStillSaidToBeSo() {
        Line line = new Line(new double[] {1}, new double[] {0.5}, 0);
        KinkDetector.Probe p = probe(line, new double[] {-100}, Stencil.CENTRAL);
        assertEquals(KinkDetector.Kind.WRONG_AT_KINK, p.kind());
        assertTrue(p.kinks()[0]);
    }

    @Test
    void aKinkBeyondTheHalfStepIsNoKinkAtHEitherWay() {
        // the jump sits between h and 2h: the leftover over h/2 does not see it, so no row is at a kink at h
        Line line = new Line(new double[] {1}, new double[] {0.5}, 1.5 * H);
        KinkDetector.Probe p = probe(line, new double[] {1}, Stencil.CENTRAL);
        assertEquals(KinkDetector.Kind.SMOOTH, p.kind());
        assertFalse(line.evaluatedAt(2 * H), line.calls().toString());
    }

    @Test
    void theFivePointStencilReadsPlusMinusTwoHForItsValue() {
        Line line = new Line(new double[] {0.5}, new double[1], 0);
        KinkDetector.Probe p = probe(line, new double[] {0.5}, Stencil.FIVE_POINT);
        assertTrue(line.evaluatedAt(2 * H) && line.evaluatedAt(-2 * H), line.calls().toString());
        double expected = (8 * (line.at(H)[0] - line.at(-H)[0]) - (line.at(2 * H)[0] - line.at(-2 * H)[0])) / (12 * H);
        assertEquals(expected, p.values()[0], 0);
    }
}
