package dev.gradcheck.result;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Counts per status of a batch, and the code the process exits with (decided by the caller: cli/ maps statuses
 * and usage problems to exit codes).
 */
public record Summary(Map<Status, Integer> counts, int total, int exitCode, double seconds) {

    public static Summary of(List<CheckResult> results, double seconds, int exitCode) {
        Map<Status, Integer> counts = new EnumMap<>(Status.class);
        for (Status s : Status.values()) {
            counts.put(s, 0);
        }
        for (CheckResult r : results) {
            counts.merge(r.status(), 1, Integer::sum);
        }
        return new Summary(counts, results.size(), exitCode, seconds);
    }

    public int count(Status s) {
        return counts.get(s);
    }
}
