package dev.gradcheck.run;

import dev.gradcheck.spec.LoadedSpec;
import dev.gradcheck.spec.SpecIds;
import dev.gradcheck.spec.TagExpression;
import java.util.List;

/**
 * Which of the loaded specs a run takes: {@code --only} (any glob matches), then not {@code --skip} (no glob
 * matches), then {@code --tag} (the expression holds for the spec's tags), then {@code -k} (the keyword expression
 * holds, each keyword a substring of the spec's name, op or file: {@link SpecKeywords}). A glob is tried against the
 * spec's name, its file's path as given on the command line, and that path relative to the project root, so
 * {@code softmax*}, {@code specs/conv/*} and {@code **}{@code /recurrent/**} all work from the project root.
 *
 * @param only     globs one of which must match; none: every spec
 * @param skip     globs none of which may match
 * @param tags     the tag expression, or null for none
 * @param keywords the keyword expression ({@code -k}), or null for none
 */
public record SpecSelection(List<Glob> only, List<Glob> skip, TagExpression tags, TagExpression keywords) {

    public static final SpecSelection ALL = new SpecSelection(List.of(), List.of(), null, null);

    public SpecSelection {
        only = List.copyOf(only);
        skip = List.copyOf(skip);
    }

    /** Whether this selection takes every spec. */
    public boolean takesAll() {
        return only.isEmpty() && skip.isEmpty() && tags == null && keywords == null;
    }

    /** The selected specs, in the order given. */
    public List<LoadedSpec> apply(List<LoadedSpec> specs, SpecIds ids) {
        return specs.stream().filter(s -> selects(s, ids)).toList();
    }

    public boolean selects(LoadedSpec spec, SpecIds ids) {
        return (only.isEmpty() || anyMatches(only, spec, ids)) && !anyMatches(skip, spec, ids)
                && (tags == null || tags.matches(spec.tags()))
                && (keywords == null || keywords.holds(SpecKeywords.of(spec, ids)::contains));
    }

    private static boolean anyMatches(List<Glob> globs, LoadedSpec spec, SpecIds ids) {
        if (globs.isEmpty()) {
            return false;
        }
        String file = spec.pos().file();
        String relative = ids.relativeFile(file);
        return globs.stream().anyMatch(g -> g.matches(spec.name()) || g.matches(file) || g.matches(relative));
    }
}
