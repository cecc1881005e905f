package dev.gradcheck.spec;

import java.util.Collection;
import java.util.Locale;
import java.util.Optional;

/**
 * "did you mean ...?" for misspelt keys, names and enum values. Public because op/ uses it for attribute names
 * too, so both rooms suggest the same way.
 */
public final class Suggestions {

    private Suggestions() {}

    /**
     * The candidate closest to {@code typed}, if it is close enough to be a plausible typo. Comparison ignores
     * case, '_' and '-' so that {@code maxRelativeError} and {@code no-grad} still find their key. Ties go to the
     * earlier candidate. Candidates whose length alone puts them out of reach are not compared: the cost is one
     * comparison per candidate of about the typed name's length, however long the name (a 1,000,000-character op
     * name was compared with all 720 ops for 33 s).
     */
    public static Optional<String> closest(String typed, Collection<String> candidates) {
        return closest(typed, candidates, Suggestions::editDistance);
    }

    /** How far apart two normalized names are; the tests count the comparisons through it. */
    interface Distance {
        int between(String a, String b);
    }

    static Optional<String> closest(String typed, Collection<String> candidates, Distance distance) {
        String t = normalize(typed);
        // Short words are all within distance 2 of each other; only allow a single edit there.
        int limit = t.length() <= 3 ? 1 : 2;
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String candidate : candidates) {
            String c = normalize(candidate);
            if (Math.abs(c.length() - t.length()) > limit) {
                continue; // at least that many edits apart: not computed, so an absurd name costs no more than a typo
            }
            int d = distance.between(t, c);
            if (d < bestDistance) {
                best = candidate;
                bestDistance = d;
            }
        }
        return bestDistance <= limit ? Optional.ofNullable(best) : Optional.empty();
    }

    /** " (did you mean 'x'?)" when a candidate is close, otherwise " (<label>: a, b, c)". */
    static String hint(String typed, Collection<String> candidates, String label) {
        return closest(typed, candidates)
                .map(s -> " (did you mean '" + s + "'?)")
                .orElse(" (" + label + ": " + String.join(", ", candidates) + ")");
    }

    /** For a value out of a fixed set: " (did you mean 'x'?); valid: a, b, c", or "; valid: a, b, c". */
    public static String choices(String typed, Collection<String> valid) {
        String suggestion = closest(typed, valid).map(s -> " (did you mean '" + s + "'?)").orElse("");
        return suggestion + "; valid: " + String.join(", ", valid);
    }

    private static String normalize(String s) {
        return s.toLowerCase(Locale.ROOT).replace("_", "").replace("-", "");
    }

    static int editDistance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
