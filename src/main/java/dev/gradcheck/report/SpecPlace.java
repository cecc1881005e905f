package dev.gradcheck.report;

import dev.gradcheck.result.CheckResult;

/**
 * A check's {@code file:line:col} taken apart, for formats that point at a spec by its parts (JUnit's
 * {@code <testcase file line>}, GitHub's annotations, the HTML report's links).
 *
 * @param file the spec file as the location names it (the whole location when it ends in no line and column)
 * @param line its line, or null when the location has none
 * @param col  its column, or null likewise
 */
record SpecPlace(String file, String line, String col) {

    /** {@code specs/a.yaml:3:1} → {@code specs/a.yaml}, 3, 1; a path may itself hold colons. */
    static SpecPlace of(String location) {
        String text = location == null ? "" : location;
        int colon2 = text.lastIndexOf(':');
        int colon1 = colon2 <= 0 ? -1 : text.lastIndexOf(':', colon2 - 1);
        if (colon1 <= 0 || !digits(text.substring(colon1 + 1, colon2)) || !digits(text.substring(colon2 + 1))) {
            return new SpecPlace(text, null, null);
        }
        return new SpecPlace(text.substring(0, colon1), text.substring(colon1 + 1, colon2),
                text.substring(colon2 + 1));
    }

    /**
     * The check's spec file relative to the project root, from its id ({@code specs/a.yaml::name}) where known, else
     * as its location names it.
     */
    static String projectFile(CheckResult r, RunDetails run) {
        String id = run.origins().of(r).id();
        if (id == null) {
            return of(r.location()).file();
        }
        // the file part ends at the first "::": spec.SpecIds writes its colons as %3A (and % as %25)
        return (id.contains("::") ? id.substring(0, id.indexOf("::")) : id).replace("%3A", ":").replace("%25", "%");
    }

    /**
     * The check's spec file relative to the repository's root where the run knew it (GitHub places annotations by
     * that path, whatever directory gradcheck ran from), else {@link #projectFile}.
     */
    static String repositoryFile(CheckResult r, RunDetails run) {
        String file = run.origins().of(r).repositoryFile();
        return file != null ? file : projectFile(r, run);
    }

    private static boolean digits(String s) {
        return !s.isEmpty() && s.chars().allMatch(Character::isDigit);
    }
}
