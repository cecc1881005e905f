package dev.gradcheck.spec;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code check} and {@code no_grad}: which inputs get their gradient checked. The default is every floating
 * input not in no_grad, in input order; an explicit check list must name floating inputs only.
 */
final class CheckSelection {

    /** @param params names that are no input, kept for a layer spec's parameters (else always the default) */
    record Result(List<String> check, List<String> noGrad, LayerSpec.Selection params) {}

    private final ValueReader reader;
    private final InputsValidator.Result inputs;
    /**
     * A layer spec's check and no_grad may name its parameters, which only DL4J knows: names that are no input are
     * kept for op/ to resolve, with their positions, instead of being refused here.
     */
    private final boolean layer;
    private final List<Located<String>> otherCheck = new ArrayList<>();
    private final List<Located<String>> otherNoGrad = new ArrayList<>();

    CheckSelection(ValueReader reader, InputsValidator.Result inputs, boolean layer) {
        this.reader = reader;
        this.inputs = inputs;
        this.layer = layer;
    }

    /**
     * @param checkNode  the {@code check} value, or null when absent
     * @param noGradNode the {@code no_grad} value, or null when absent
     * @param inputsPos  where to report "nothing to check" when check was defaulted
     */
    Result read(YamlNode checkNode, YamlNode noGradNode, SourcePos inputsPos) {
        List<String> noGrad = noGradNode == null ? List.of() : names(noGradNode, "no_grad", Set.of());
        Set<String> noGradSet = new HashSet<>(noGrad);
        List<String> check;
        if (checkNode != null) {
            check = names(checkNode, "check", noGradSet);
            if (checkNode instanceof YamlNode.Sequence s && s.items().isEmpty()) {
                reader.problems.add(checkNode.pos(), "nothing to check: 'check' is empty");
            }
        } else {
            check = defaultCheck(noGradSet, noGradNode, inputsPos);
        }
        rejectEmpty(check);
        LayerSpec.Selection params = new LayerSpec.Selection(checkNode == null ? null : List.copyOf(otherCheck),
                List.copyOf(otherNoGrad));
        return new Result(check, noGrad, params);
    }

    /** Every floating input not in no_grad; none is an error, except for a layer, which has its parameters. */
    private List<String> defaultCheck(Set<String> noGradSet, YamlNode noGradNode, SourcePos inputsPos) {
        List<String> check = inputs.names().stream()
                .filter(n -> inputs.dtypes().containsKey(n) && inputs.dtypes().get(n).isFloating())
                .filter(n -> !noGradSet.contains(n))
                .toList();
        if (check.isEmpty() && inputs.complete() && !layer) {
            boolean anyFloating = inputs.dtypes().values().stream().anyMatch(DType::isFloating);
            reader.problems.add(anyFloating && noGradNode != null ? noGradNode.pos() : inputsPos,
                    anyFloating ? "nothing to check: every floating input is in no_grad"
                            : "nothing to check: no floating input");
        }
        return check;
    }

    /**
     * A checked input without elements has an empty Jacobian: the check would compare nothing and pass, and ND4J
     * cannot even make a variable of it. Such a spec is refused rather than reported green.
     */
    private void rejectEmpty(List<String> check) {
        for (String n : check) {
            Located<long[]> shape = inputs.empty().get(n);
            if (shape != null) {
                reader.problems.add(shape.pos(), "input '" + n + "' has no elements (shape "
                        + NestedValues.format(shape.value()) + "): nothing to differentiate; give it a non-zero"
                        + " shape, or keep it out of check (no_grad) if the op needs it empty");
            }
        }
    }

    /** A list of input names; for {@code check}, each must also be floating and not in {@code noGrad}. */
    private List<String> names(YamlNode node, String key, Set<String> noGrad) {
        Optional<YamlNode.Sequence> seq = reader.sequence(node, key);
        if (seq.isEmpty()) {
            return List.of();
        }
        boolean isCheck = key.equals("check");
        List<String> result = new ArrayList<>();
        List<YamlNode> items = seq.get().items();
        for (int i = 0; i < items.size(); i++) {
            YamlNode item = items.get(i);
            Optional<String> name = reader.name(item, ValueReader.element(key, i));
            if (name.isEmpty()) {
                continue;
            }
            String n = name.get();
            if (!inputs.names().contains(n) && layer) {
                (isCheck ? otherCheck : otherNoGrad).add(new Located<>(n, item.pos()));
                continue;
            }
            String problem = problem(n, key, result, isCheck ? noGrad : null);
            if (problem != null) {
                reader.problems.add(item.pos(), problem);
            } else {
                result.add(n);
            }
        }
        return List.copyOf(result);
    }

    /**
     * What is wrong with naming input {@code n} in {@code key}, or null.
     *
     * @param noGrad for {@code check}, the inputs in no_grad; null for no_grad itself
     */
    private String problem(String n, String key, List<String> named, Set<String> noGrad) {
        if (!inputs.names().contains(n)) {
            return key + " names '" + n + "', which is not an input" + Suggestions.hint(n, inputs.names(), "inputs");
        }
        if (named.contains(n)) {
            return "input '" + n + "' appears twice in " + key;
        }
        if (noGrad != null && noGrad.contains(n)) {
            return "input '" + n + "' is in both check and no_grad";
        }
        if (noGrad != null && inputs.dtypes().containsKey(n) && !inputs.dtypes().get(n).isFloating()) {
            return "input '" + n + "' is " + inputs.dtypes().get(n) + " and cannot be checked";
        }
        return null;
    }
}
