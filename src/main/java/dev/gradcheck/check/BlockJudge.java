package dev.gradcheck.check;

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
final class BlockJudge {

    private BlockJudge() {}

    /**
     * One entry of a block that sits at a kink of its output element.
     *
     * @param row        its position among the block's rows; {@code flatRow} is the output element
     * @param col        its position among the block's columns; {@code flatCol} is the input element
     * @param analytic   the backward's value there
     * @param slopeMinus the one-sided slope from below along the input element
     * @param slopePlus  the one-sided slope from above
     */
    record KinkEntry(String input, int row, int flatRow, int col, int flatCol, double analytic, double slopeMinus,
                     double slopePlus) {}

    /** A judged block: its figures, what the report should say beside them, and its entries at kinks. */
    record Judged(JacobianComparison.Row row, String note, List<KinkEntry> kinks) {

        /** The entries left out at a kink, for the block's diagnosis. */
        EntryFilter atKinks() {
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
        Judged failingTies(TieCheck.Violation tie, Jacobian numerical) {
            JacobianComparison.Row r = row;
            if (!row.verdict().passed()) {
                return new Judged(r, note == null ? tie.note() : note + "; " + tie.note(), kinks);
            }
            KinkEntry k = tie.entry();
            WorstElement worst = new WorstElement(Flat.unravel(k.flatRow(), numerical.outputShape()),
                    Flat.unravel(k.flatCol(), numerical.inputShape()), k.analytic(),
                    numerical.values()[k.row()][k.col()]);
            double off = Math.abs(tie.joint() - tie.op()); // the tie's own figures: its error is the block's largest
            r = new JacobianComparison.Row(Verdict.MISMATCH, Math.max(row.maxAbs(), off),
                    Math.max(row.maxRel(), Tolerance.relativeError(tie.joint(), tie.op())), tie.score(), worst,
                    row.withinError(), row.largestError());
            return new Judged(r, note == null ? tie.note() : note + "; " + tie.note(), kinks);
        }
    }

    /**
     * @param masked     entries the spec's mask leaves out
     * @param errors     the numerical side's error bounds (probes add what they measure)
     * @param derivative the numerical derivative to probe with, or null when there is none (a reference split at
     *                   error clips): the block is then compared as it is
     */
    static Judged judge(Jacobian a, Jacobian n, EntryFilter masked, NumericalError.Block errors, Tolerance rule,
                        double delta,
                        String in, String out, double scale, NumericalDerivative derivative) {
        NumericalError bounds = errors == null ? NumericalError.NONE : errors;
        JacobianComparison.Row row = JacobianComparison.compare(a, n, bounds, masked, rule, delta, scale);
        if (row.verdict().passed() || derivative == null || errors == null) {
            return new Judged(row, row.errorNote(), List.of());
        }
        Set<Long> atKink = new HashSet<>();
        List<KinkEntry> kinks = new ArrayList<>();
        int kinkColumns = 0;
        long[] firstKink = null;
        long[] wrongAtKink = null;
        for (int c = 0; c < n.colCount(); c++) {
            List<Integer> disagreeing = new ArrayList<>();
            for (int r = 0; r < n.rowCount(); r++) {
                if (!masked.skips(r, c)
                        && !(JacobianComparison.score(rule, a.values()[r][c], n.values()[r][c], bounds.at(r, c)) <= 1)) {
                    disagreeing.add(r);
                }
            }
            if (disagreeing.isEmpty()) {
                continue;
            }
            int col = c;
            int[] flatRows = disagreeing.stream().mapToInt(n::row).toArray();
            double[] analytic = disagreeing.stream().mapToDouble(r -> a.values()[r][col]).toArray();
            int flatCol = n.col(c);
            KinkDetector.Probe probe = KinkDetector.probe(
                    t -> Flat.values(derivative.atElement(in, flatCol, t).get(out)),
                    derivative.stepAt(in, flatCol), flatRows, analytic, scale, derivative.stencil());
            boolean kinkHere = false;
            for (int k = 0; k < disagreeing.size(); k++) {
                int r = disagreeing.get(k);
                if (probe.kinks()[k]) {
                    kinkHere = true;
                    atKink.add(key(r, c));
                    kinks.add(new KinkEntry(in, r, flatRows[k], c, flatCol, analytic[k], probe.slopeMinus()[k],
                            probe.slopePlus()[k]));
                } else if (probe.errors()[k] > 0) {
                    errors.measured(r, c, probe.errors()[k]);
                }
            }
            if (probe.kind() == KinkDetector.Kind.WRONG_AT_KINK) {
                atKink.removeIf(e -> (e & 0xFFFFFFFFL) == col); // judged, not left out: its value is no subgradient
                kinks.removeIf(e -> e.col() == col);
                wrongAtKink = wrongAtKink == null ? Flat.unravel(flatCol, n.inputShape()) : wrongAtKink;
            } else if (kinkHere) {
                kinkColumns++;
                firstKink = firstKink == null ? Flat.unravel(flatCol, n.inputShape()) : firstKink;
            }
        }
        String wrongNote = wrongAtKink == null ? null : in + Arrays.toString(wrongAtKink)
                + " sits at a kink, but the backward's value there is outside the one-sided slopes (not a subgradient)";
        EntryFilter kinkOrMasked = ((EntryFilter) (r, c) -> atKink.contains(key(r, c))).or(masked);
        JacobianComparison.Row judged = JacobianComparison.compare(a, n, errors, kinkOrMasked, rule, delta, scale);
        List<String> notes = new ArrayList<>();
        if (kinkColumns > 0) {
            notes.add(kinkColumns + " of " + n.colCount() + " elements of " + in + " sit at a nondifferentiable point"
                    + " (e.g. " + in + Arrays.toString(firstKink) + ") and were left out; the backward gives a"
                    + " subgradient there");
            if (judged.verdict().passed()) {
                judged = judged.withVerdict(Verdict.NONDIFFERENTIABLE);
            }
        }
        if (wrongNote != null) {
            notes.add(wrongNote);
        }
        if (judged.errorNote() != null) {
            notes.add(judged.errorNote());
        }
        return new Judged(judged, notes.isEmpty() ? null : String.join("; ", notes), kinks);
    }

    /** An entry's position as one key: column in the low half, row in the high half. */
    private static long key(int row, int col) {
        return ((long) row << 32) | (col & 0xFFFFFFFFL);
    }
}
