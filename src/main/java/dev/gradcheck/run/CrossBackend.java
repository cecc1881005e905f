package dev.gradcheck.run;

import dev.gradcheck.result.BackendDifference;
import dev.gradcheck.result.BackendSample;
import dev.gradcheck.result.CheckResult;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code --backend all}: the report rows of one spec on several engines form a group, the first engine's the
 * reference. Once every row of a group has ended, each further row gets its {@link BackendDifference} from the
 * reference's, where both engines could take a {@link BackendSample}; the samples (whole outputs and gradients)
 * are dropped right after.
 */
final class CrossBackend {

    /** For each grouped row, all the rows of its group. */
    private final Map<Integer, int[]> groups = new HashMap<>();
    private final BackendSample[] samples;

    CrossBackend(List<int[]> groupList, int rows) {
        for (int[] group : groupList) {
            for (int i : group) {
                groups.put(i, group);
            }
        }
        samples = new BackendSample[rows];
    }

    /**
     * Row {@code index} has ended ({@code slots[index]} holds its result): the rows whose results are now final,
     * the row itself when it is alone, its whole group when that is complete (differences filled in), else none.
     */
    int[] ended(int index, BackendSample sample, CheckResult[] slots) {
        int[] group = groups.get(index);
        if (group == null) {
            return new int[] {index};
        }
        samples[index] = sample;
        return complete(group, slots) ? group : new int[0];
    }

    /** The groups whose every row was known before anything ran (each row's final result is then known). */
    List<int[]> completeAtStart(CheckResult[] slots) {
        return groups.values().stream().distinct().filter(g -> complete(g, slots)).toList();
    }

    boolean grouped(int index) {
        return groups.containsKey(index);
    }

    private boolean complete(int[] group, CheckResult[] slots) {
        for (int i : group) {
            if (slots[i] == null) {
                return false;
            }
        }
        BackendSample reference = samples[group[0]];
        for (int k = 1; k < group.length; k++) {
            int i = group[k];
            if (reference != null && samples[i] != null) {
                slots[i] = slots[i].withCrossBackend(difference(slots[group[0]].backend(), reference, samples[i]));
            }
        }
        for (int i : group) {
            samples[i] = null;
        }
        return true;
    }

    static BackendDifference difference(String against, BackendSample reference, BackendSample other) {
        Extremes outputs = Extremes.over(reference.outputs(), other.outputs());
        Extremes gradients = Extremes.over(reference.gradients(), other.gradients());
        return new BackendDifference(against, outputs.abs, outputs.rel, outputs.where, gradients.abs, gradients.rel,
                gradients.where);
    }

    private record Extremes(double abs, double rel, String where) {
        static Extremes over(Map<String, double[]> reference, Map<String, double[]> other) {
            double abs = 0;
            double rel = 0;
            String where = "";
            for (Map.Entry<String, double[]> e : reference.entrySet()) {
                double[] r = e.getValue();
                double[] o = other.get(e.getKey());
                if (o == null || o.length != r.length) { // a backend that drops an output differs completely
                    return new Extremes(Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY, e.getKey());
                }
                for (int i = 0; i < r.length; i++) {
                    double d = Math.abs(o[i] - r[i]);
                    double dRel = d / (Math.abs(r[i]) < 1e-3 ? 1 : Math.abs(r[i]));
                    if (Double.isNaN(d) && !(Double.isNaN(o[i]) && Double.isNaN(r[i]))) {
                        d = Double.POSITIVE_INFINITY; // NaN on one side only
                        dRel = d;
                    } else if (Double.isNaN(d)) {
                        d = 0; // NaN on both sides agrees; the check's own verdict reports the NaN
                        dRel = 0;
                    }
                    abs = Math.max(abs, d);
                    if (dRel > rel || where.isEmpty()) {
                        rel = Math.max(rel, dRel);
                        where = e.getKey() + "[" + i + "]";
                    }
                }
            }
            return new Extremes(abs, rel, where);
        }
    }
}
