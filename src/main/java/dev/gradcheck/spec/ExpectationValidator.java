package dev.gradcheck.spec;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** A spec's {@code expect} and {@code reason}: what the check is expected to end in, and why. */
final class ExpectationValidator {

    private static final List<String> EXPECTATIONS = List.of("pass", "fail", "error");

    private final ValueReader reader;
    private final Problems problems;

    ExpectationValidator(ValueReader reader, Problems problems) {
        this.reader = reader;
        this.problems = problems;
    }

    /**
     * A non-pass expectation must say why, so a known bug stays explained wherever the report is read.
     * {@code expect: {fail: [zero-grad]}} names the kinds of row expected to fail, so the others still guard.
     */
    Expectation read(YamlNode.Mapping m) {
        Optional<String> reason = m.get("reason").flatMap(n -> reader.text(n, "reason"));
        Optional<YamlNode> node = m.get("expect");
        if (node.isEmpty()) {
            return Expectation.PASS;
        }
        List<String> failing = List.of();
        Optional<String> kind;
        if (node.get() instanceof YamlNode.Mapping em) {
            reader.rejectUnknownKeys(em, List.of("fail"), "expect");
            failing = em.get("fail").map(this::failingKinds).orElse(List.of());
            if (em.get("fail").isEmpty()) {
                problems.add(em.pos(), "'expect' as a mapping takes 'fail': a list of row kinds expected to fail");
            }
            kind = Optional.of("fail");
        } else {
            kind = reader.string(node.get(), "expect");
        }
        if (kind.isEmpty()) {
            return Expectation.PASS;
        }
        if (!EXPECTATIONS.contains(kind.get())) {
            problems.add(node.get().pos(), "unknown expect '" + kind.get() + "'"
                    + Suggestions.choices(kind.get(), EXPECTATIONS));
            return Expectation.PASS;
        }
        if (kind.get().equals("pass")) {
            return Expectation.PASS; // a reason next to pass is harmless and ignored
        }
        if (reason.isEmpty() && m.get("reason").isEmpty()) {
            problems.add(node.get().pos(), "expect '" + kind.get() + "' needs a 'reason' (why it is expected to "
                    + kind.get() + ")");
        }
        Expectation.Kind k = kind.get().equals("fail") ? Expectation.Kind.FAIL : Expectation.Kind.ERROR;
        return new Expectation(k, reason.orElse(null), failing);
    }

    private List<String> failingKinds(YamlNode node) {
        List<String> kinds = new ArrayList<>();
        Optional<YamlNode.Sequence> seq = reader.sequence(node, "expect.fail");
        if (seq.isEmpty()) {
            return kinds;
        }
        if (seq.get().items().isEmpty()) {
            problems.add(node.pos(), "'expect.fail' is empty; write expect: fail to accept any failing row");
        }
        List<YamlNode> items = seq.get().items();
        for (int i = 0; i < items.size(); i++) {
            YamlNode item = items.get(i);
            reader.string(item, ValueReader.element("expect.fail", i)).ifPresent(k -> {
                if (!Expectation.ROW_KINDS.contains(k)) {
                    problems.add(item.pos(), "unknown row kind '" + k + "'" + Suggestions.choices(k,
                            Expectation.ROW_KINDS));
                } else if (!kinds.contains(k)) {
                    kinds.add(k);
                }
            });
        }
        return List.copyOf(kinds);
    }
}
