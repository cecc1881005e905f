package dev.gradcheck.spec;

import java.util.Comparator;
import java.util.List;

/**
 * One document of a spec file after loading: either a valid {@code spec} (and no errors), or no spec and at least
 * one error. Invalid documents keep a name so reports can still list them.
 *
 * @param pos    where the document starts (file:1:1 when the file itself could not be read)
 * @param name   the spec's name, or its default when the name is missing or invalid
 * @param spec   the validated spec, or null
 * @param errors every error found, in file order; empty exactly when spec is non-null
 * @param tags   the document's {@code tags:}, which select it ({@code --tag}) but do not change its check; for an
 *               invalid document, those that could be read
 * @param named  for an invalid one-op document, the op and attributes it names (to check them against the op
 *               catalog with the other problems); null otherwise
 */
public record LoadedSpec(SourcePos pos, String name, OpSpec spec, List<SpecError> errors, List<String> tags,
                         NamedOp named) {

    public LoadedSpec {
        errors = List.copyOf(errors);
        tags = tags == null ? List.of() : List.copyOf(tags);
        if ((spec == null) == errors.isEmpty()) {
            throw new IllegalArgumentException("exactly one of spec and errors must be given");
        }
    }

    /** A document without tags. */
    public LoadedSpec(SourcePos pos, String name, OpSpec spec, List<SpecError> errors) {
        this(pos, name, spec, errors, List.of());
    }

    /** A document whose op and attributes, if it is invalid, are not known. */
    public LoadedSpec(SourcePos pos, String name, OpSpec spec, List<SpecError> errors, List<String> tags) {
        this(pos, name, spec, errors, tags, null);
    }

    static LoadedSpec valid(OpSpec spec, List<String> tags) {
        return new LoadedSpec(spec.pos(), spec.name(), spec, List.of(), tags);
    }

    static LoadedSpec invalid(SourcePos pos, String name, List<SpecError> errors) {
        return new LoadedSpec(pos, name, null, errors, List.of());
    }

    /** The same document, invalid for these errors, keeping its tags. */
    LoadedSpec withErrors(List<SpecError> all) {
        return new LoadedSpec(pos, name, null, all, tags, named);
    }

    /**
     * The same invalid document with these further problems among its own, in file order, each once (the op
     * catalog's, found by whoever knows the ops: the spec room does not).
     */
    public LoadedSpec withMoreErrors(List<SpecError> more) {
        if (more.isEmpty()) {
            return this;
        }
        java.util.LinkedHashSet<SpecError> all = new java.util.LinkedHashSet<>(errors);
        all.addAll(more);
        return withErrors(all.stream().sorted(Comparator.comparingInt((SpecError e) -> e.pos().line())
                .thenComparingInt(e -> e.pos().col())).toList());
    }

    public boolean isValid() {
        return spec != null;
    }

    /** The spec, or an exception carrying every error, for callers that treat an invalid spec as a failure. */
    public OpSpec specOrThrow() throws InvalidSpecException {
        if (spec == null) {
            throw new InvalidSpecException(errors);
        }
        return spec;
    }
}
