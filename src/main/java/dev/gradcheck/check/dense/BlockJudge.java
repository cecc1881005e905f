package dev.gradcheck.check.dense;

import dev.gradcheck.check.numeric.EntryFilter;
import dev.gradcheck.check.numeric.Flat;
import dev.gradcheck.check.numeric.Jacobian;
import dev.gradcheck.check.numeric.JacobianComparison;
import dev.gradcheck.check.numeric.KinkDetector;
import dev.gradcheck.check.numeric.MostPreciseStep;
import dev.gradcheck.check.numeric.NumericTuning;
import dev.gradcheck.check.numeric.NumericalDerivative;
import dev.gradcheck.check.numeric.NumericalError;
import dev.gradcheck.result.Verdict;
import dev.gradcheck.result.WorstElement;
import dev.gradcheck.spec.Tolerance;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Judges one full-mode block: compares it ({@link JacobianComparison}); where it disagrees, probes each disagreeing
 * column along its input element ({@link KinkDetector}) and compares again. A probe tells a kink from a smooth
 * point, and at a smooth point it measures the finite difference's own error from a half step; so an entry that
 * disagrees only because the numerical side cannot resolve it passes, and entries at a kink are left out.
 * Disagreement only at kinks is {@link Verdict#NONDIFFERENTIABLE}, not a mismatch; a value outside the one-sided
 * slopes at a kink is no subgradient and stays a mismatch. The kink entries are handed on, so that ties between
 * several elements can be judged together ({@link TieCheck}).
 */
public final class BlockJudge {

    private BlockJudge() {}

    /**
     * How a block's columns are probed: the reference's derivative, moving one element of {@code in} at a time, read
     * at {@code out}.
     */
    public record Columns(NumericalDerivative derivative, String in, String out) {

        /** The outputs, flat, along the axis of input element {@code flatCol}. */
        public KinkDetector.Line line(int flatCol) {
            return t -> Flat.values(derivative.atElement(in, flatCol, t).get(out));
        }
    }

    /**
     * A judged block: its figures, what the report should say beside them, its entries at kinks, and the numerical
     * side's error bounds it was judged by (with what the probes measured) and its values as judged (each entry at
     * its most precise step where it was taken again), for scoring its entries again.
     */
    public record Judged(JacobianComparison.Row row, String note, List<KinkEntry> kinks, NumericalError errors,
                         Jacobian numerical) {

        /** Entry (r, c)'s score under the tolerance, as judged. */
        public double score(Tolerance rule, Jacobian analytic, int r, int c) {
            return JacobianComparison.score(rule, analytic.values()[r][c], numerical.values()[r][c], errors.at(r, c));
        }

        /** The entries left out at a kink, for the block's diagnosis. */
        public EntryFilter atKinks() {
            if (kinks.isEmpty()) {
                return EntryFilter.NONE;
            }
            Set<Long> at = new HashSet<>();
            kinks.forEach(k -> at.add(key(k.row(), k.col())));
            return (r, c) -> at.contains(key(r, c));
        }

        /**
         * The block with a tie it takes part in judged wrong ({@link TieCheck}): a mismatch, whose worst element is
         * the input's entry in the tie (unless the block failed elsewhere already, which stays its worst).
         *
         * @param numerical the block's numerical side, for the entry's value there
         */
        public Judged failingTies(TieCheck.Violation tie, Jacobian numerical) {
            JacobianComparison.Row r = row;
            if (!row.verdict().passed()) {
                return new Judged(r, note == null ? tie.note() : note + "; " + tie.note(), kinks, errors, this.numerical);
            }
            KinkEntry k = tie.entry();
            WorstElement worst = new WorstElement(Flat.unravel(k.flatRow(), numerical.outputShape()),
                    Flat.unravel(k.flatCol(), numerical.inputShape()), k.analytic(),
                    numerical.values()[k.row()][k.col()]);
            r = TieCheck.failing(row, tie, worst);
            return new Judged(r, note == null ? tie.note() : note + "; " + tie.note(), kinks, errors, this.numerical);
        }
    }

    /**
     * Compares the block; where it disagrees, probes each disagreeing column and compares again.
     *
     * @param masked  entries the spec's mask leaves out
     * @param errors  the numerical side's rounding bounds, or null when it has none; left as they are (the probes'
     *                measurements go into the bounds the judgement returns)
     * @param columns how to probe the columns, or null when there is no derivative to probe with (a reference split
     *                at error clips): the block is then compared as it is
     */
    public static Judged judge(Jacobian a, Jacobian n, EntryFilter masked, NumericalError.Block errors,
                        JacobianComparison.Criteria criteria, Columns columns) {
        NumericalError bounds = errors == null ? NumericalError.NONE : errors;
        JacobianComparison.Row row = JacobianComparison.compare(a, n, bounds, masked, criteria);
        // a passing block is probed too where entries lie within the bound alone or near the tolerance: a more
        // precise step may resolve what the bound hides, or clear what noise put near the line (MostPreciseStep)
        if ((row.verdict().passed() && row.withinError() == 0 && !(row.maxScore() > NumericTuning.AGAIN_ABOVE))
                || columns == null || errors == null) {
            return new Judged(row, row.errorNote(), List.of(), bounds, n);
        }
        KinkSearch search = new KinkSearch(a, n, masked, errors.copy(), criteria, columns);
        for (int c = 0; c < n.colCount(); c++) {
            search.probe(c);
        }
        return search.judged();
    }

    /**
     * The disagreeing columns of one block, probed one by one: entries at a kink are left out (unless the backward's
     * value there is no subgradient), and a smooth entry's bound takes in the error its probe measured.
     */
    private static final class KinkSearch {
        private final Jacobian a;
        private final Jacobian n;
        private final EntryFilter masked;
        private final NumericalError.Block errors;
        /**
         * The numerical side's values as judged: the block's own until an entry is taken again at a more precise
         * step, then a copy with each such entry replaced (copied once, only where needed: a block may be large).
         */
        private double[][] judged;
        private final JacobianComparison.Criteria criteria;
        private final Columns columns;
        private final Set<Long> atKink = new HashSet<>();
        private final List<KinkEntry> kinks = new ArrayList<>();
        private int kinkColumns;
        private long[] firstKink;
        private long[] wrongAtKink;

        KinkSearch(Jacobian a, Jacobian n, EntryFilter masked, NumericalError.Block errors,
                   JacobianComparison.Criteria criteria, Columns columns) {
            this.a = a;
            this.n = n;
            this.masked = masked;
            this.errors = errors;
            this.judged = n.values();
            this.criteria = criteria;
            this.columns = columns;
        }

        /** Probes column c along its input element, when any of its entries disagrees. */
        void probe(int c) {
            List<Integer> disagreeing = disagreeing(c);
            if (disagreeing.isEmpty()) {
                return;
            }
            int[] flatRows = disagreeing.stream().mapToInt(n::row).toArray();
            double[] analytic = disagreeing.stream().mapToDouble(r -> a.values()[r][c]).toArray();
            int flatCol = n.col(c);
            NumericalDerivative derivative = columns.derivative();
            double h = derivative.stepAt(columns.in(), flatCol);
            KinkDetector.Probe probe = KinkDetector.probe(columns.line(flatCol), h, flatRows, analytic,
                    criteria.outputScale(), derivative.stencil());
            MostPreciseStep.Estimate[] precise = mostPrecise(probe, disagreeing, c, h, flatRows, analytic);
            boolean kinkHere = false;
            for (int k = 0; k < disagreeing.size(); k++) {
                int r = disagreeing.get(k);
                if (probe.kinks()[k]) {
                    kinkHere = true;
                    atKink.add(key(r, c));
                    kinks.add(new KinkEntry(columns.in(), r, flatRows[k], c, flatCol, analytic[k],
                            probe.slopeMinus()[k], probe.slopePlus()[k]));
                } else if (precise[k] != null && precise[k].step() != h) {
                    errors.atPreciseStep(r, c, precise[k].bound());
                    if (judged == n.values()) {
                        judged = Arrays.stream(judged).map(double[]::clone).toArray(double[][]::new);
                    }
                    judged[r][c] = precise[k].value();
                } else if (probe.errors()[k] > 0) {
                    errors.measured(r, c, probe.errors()[k]);
                }
            }
            if (probe.kind() == KinkDetector.Kind.WRONG_AT_KINK) {
                atKink.removeIf(e -> (e & 0xFFFFFFFFL) == c); // judged, not left out: its value is no subgradient
                kinks.removeIf(e -> e.col() == c);
                wrongAtKink = wrongAtKink == null ? Flat.unravel(flatCol, n.inputShape()) : wrongAtKink;
            } else if (kinkHere) {
                kinkColumns++;
                firstKink = firstKink == null ? Flat.unravel(flatCol, n.inputShape()) : firstKink;
            }
        }

        /** Each disagreeing row's value and bound at its most precise step (null at a kink at h). */
        private MostPreciseStep.Estimate[] mostPrecise(KinkDetector.Probe probe, List<Integer> rows, int c, double h,
                                                       int[] flatRows, double[] analytic) {
            MostPreciseStep.Estimate[] atH = new MostPreciseStep.Estimate[rows.size()];
            for (int k = 0; k < atH.length; k++) {
                atH[k] = MostPreciseStep.Estimate.of(probe, k, errors.rounding(rows.get(k), c), h);
            }
            return MostPreciseStep.choose(columns.line(n.col(c)), h, new MostPreciseStep.Rows(flatRows, analytic), atH,
                    criteria.outputScale(), columns.derivative().stencil());
        }

        /**
         * The rows of column c whose score under the tolerance alone is above {@link NumericTuning#AGAIN_ABOVE}
         * (masked entries aside), within their bounds or not: a bound may hide what a more precise step resolves.
         */
        private List<Integer> disagreeing(int c) {
            List<Integer> rows = new ArrayList<>();
            for (int r = 0; r < n.rowCount(); r++) {
                if (!masked.skips(r, c) && !(criteria.tolerance().score(a.values()[r][c], n.values()[r][c])
                        <= NumericTuning.AGAIN_ABOVE)) {
                    rows.add(r);
                }
            }
            return rows;
        }

        /** The block compared again with the entries at kinks left out, and what the report says of them. */
        Judged judged() {
            String in = columns.in();
            EntryFilter kinkOrMasked = ((EntryFilter) (r, c) -> atKink.contains(key(r, c))).or(masked);
            Jacobian values = new Jacobian(n.outputShape(), n.inputShape(), this.judged, n.rows(), n.cols());
            JacobianComparison.Row judged = JacobianComparison.compare(a, values, errors, kinkOrMasked, criteria);
            List<String> notes = new ArrayList<>();
            if (kinkColumns > 0) {
                notes.add(kinkNote(kinkColumns, n.colCount(), in, firstKink));
                if (judged.verdict().passed()) {
                    judged = judged.withVerdict(Verdict.NONDIFFERENTIABLE);
                }
            }
            if (wrongAtKink != null) {
                notes.add(in + Arrays.toString(wrongAtKink) + " sits at a kink, but the backward's value there is"
                        + " outside the one-sided slopes (not a subgradient)");
            }
            if (judged.errorNote() != null) {
                notes.add(judged.errorNote());
            }
            return new Judged(judged, notes.isEmpty() ? null : String.join("; ", notes), kinks, errors, values);
        }
    }

    /** What a block's row says of the input elements whose entries were left out at kinks. */
    public static String kinkNote(long kinkColumns, long columns, String in, long[] firstKink) {
        return kinkColumns + " of " + columns + " elements of " + in + " sit at a nondifferentiable point (e.g. " + in
                + Arrays.toString(firstKink) + ") and were left out; the backward gives a subgradient there";
    }

    /** An entry's position as one key: column in the low half, row in the high half. */
    private static long key(int row, int col) {
        return ((long) row << 32) | (col & 0xFFFFFFFFL);
    }
}
