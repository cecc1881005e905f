package dev.gradcheck.result;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/** Counts per status and the batch exit code: the highest code any result asks for. */
public record Summary(Map<Status, Integer> counts, int total, int exitCode, double seconds) {

    public static Summary of(List<CheckResult> results, double seconds) {
        Map<Status, Integer> counts = new EnumMap<>(Status.class);
        for (Status s : Status.values()) {
            counts.put(s, 0);
        }
        int exit = 0;
        for (CheckResult r : results) {
            counts.merge(r.status(), 1, Integer::sum);
            exit = Math.max(exit, r.status().exitCode());
        }
        return new Summary(counts, results.size(), exit, seconds);
    }

    public int count(Status s) {
        return counts.get(s);
    }
}
