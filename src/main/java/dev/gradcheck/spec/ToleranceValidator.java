package dev.gradcheck.spec;

import java.util.List;
import java.util.Optional;

/** {@code tolerance}: either Paddle's {max_relative_error} or the allclose {atol, rtol}, never both. */
final class ToleranceValidator {

    static final List<String> KEYS = List.of("max_relative_error", "atol", "rtol");

    private final ValueReader reader;

    ToleranceValidator(ValueReader reader) {
        this.reader = reader;
    }

    Optional<Tolerance> read(YamlNode node) {
        Optional<YamlNode.Mapping> mapping = reader.mapping(node, "tolerance");
        if (mapping.isEmpty()) {
            return Optional.empty();
        }
        YamlNode.Mapping m = mapping.get();
        int before = reader.problems.count();
        reader.rejectUnknownKeys(m, KEYS, "tolerance");
        Optional<YamlNode.Entry> maxRel = m.entry("max_relative_error");
        Optional<YamlNode.Entry> atol = m.entry("atol");
        Optional<YamlNode.Entry> rtol = m.entry("rtol");

        if (maxRel.isPresent() && (atol.isPresent() || rtol.isPresent())) {
            YamlNode.Entry second = atol.orElseGet(rtol::get);
            reader.problems.add(second.keyPos(), "tolerance mixes two rules: use either max_relative_error, "
                    + "or atol/rtol, not both");
            return Optional.empty();
        }
        if (maxRel.isPresent()) {
            Optional<Double> v = bounded(maxRel.get().value(), "tolerance.max_relative_error", false);
            return v.isPresent() && reader.problems.count() == before
                    ? Optional.of(new Tolerance.MaxRelative(v.get()))
                    : Optional.empty();
        }
        if (atol.isEmpty() && rtol.isEmpty()) {
            if (m.entries().isEmpty()) { // otherwise the unknown keys were reported already
                reader.problems.add(m.pos(), "tolerance needs max_relative_error, or atol and/or rtol");
            }
            return Optional.empty();
        }
        // A missing half of the allclose rule means "no allowance from that side".
        Optional<Double> a = atol.map(e -> bounded(e.value(), "tolerance.atol", true)).orElse(Optional.of(0.0));
        Optional<Double> r = rtol.map(e -> bounded(e.value(), "tolerance.rtol", true)).orElse(Optional.of(0.0));
        if (a.isEmpty() || r.isEmpty() || reader.problems.count() > before) {
            return Optional.empty();
        }
        if (a.get() == 0 && r.get() == 0) {
            reader.problems.add(m.pos(), "tolerance with atol = 0 and rtol = 0 allows no error at all; "
                    + "give a positive atol or rtol");
            return Optional.empty();
        }
        return Optional.of(new Tolerance.AllClose(a.get(), r.get()));
    }

    /** A finite number that is > 0, or >= 0 when {@code zeroAllowed}. */
    private Optional<Double> bounded(YamlNode node, String path, boolean zeroAllowed) {
        Optional<Double> v = reader.number(node, path);
        if (v.isPresent() && (v.get() < 0 || (!zeroAllowed && v.get() == 0))) {
            reader.problems.add(node.pos(), "'" + path + "' must be " + (zeroAllowed ? ">= 0" : "> 0") + ", got "
                    + ((YamlNode.Scalar) node).text());
            return Optional.empty();
        }
        return v;
    }
}
