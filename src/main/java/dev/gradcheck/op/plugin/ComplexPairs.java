package dev.gradcheck.op.plugin;

import dev.gradcheck.spec.InputSpec;
import dev.gradcheck.spec.OpSpec;
import dev.gradcheck.spec.SpecError;
import java.util.Arrays;
import java.util.List;

/**
 * The (re, im) pairs of a complex plugin op: {@code z.re} and {@code z.im} stand for z = re + i·im. With the
 * gradient convention of PyTorch (a complex input's gradient is 2·∂L/∂z* = ∂L/∂re + i·∂L/∂im, for a real loss
 * L), a correct complex backward is exactly the real backward of the pairs, so the ordinary real check on the
 * pairs is the Wirtinger check: each output part against each input part. What is left to check here is that
 * the pairs are whole.
 */
final class ComplexPairs {

    static final String RE = ".re";
    static final String IM = ".im";

    private ComplexPairs() {}

    static void validate(String opName, List<String> opOutputs, OpSpec spec, List<SpecError> errors) {
        for (String out : opOutputs) {
            String partner = partnerOf(out);
            if (partner != null && !opOutputs.contains(partner)) {
                errors.add(new SpecError(spec.op().pos(), opName + " is complex, but its output '" + out
                        + "' has no partner '" + partner + "' (a plugin bug)"));
            }
        }
        List<String> names = spec.inputs().stream().map(InputSpec::name).toList();
        for (InputSpec re : spec.inputs()) {
            String partner = partnerOf(re.name());
            if (partner == null) {
                continue;
            }
            if (!names.contains(partner)) {
                errors.add(new SpecError(re.pos(), opName + " is complex: input '" + re.name() + "' needs its"
                        + " partner '" + partner + "'"));
                continue;
            }
            InputSpec other = spec.input(partner);
            if (re.name().endsWith(RE) && (!Arrays.equals(re.shape(), other.shape()) || re.dtype() != other.dtype())) {
                errors.add(new SpecError(other.pos(), opName + " is complex: '" + partner + "' must have the shape"
                        + " and dtype of '" + re.name() + "' (" + Arrays.toString(re.shape()) + " " + re.dtype()
                        + "), not " + Arrays.toString(other.shape()) + " " + other.dtype()));
            }
        }
    }

    /** {@code z.im} for {@code z.re} and the other way round; null for a real name. */
    static String partnerOf(String name) {
        if (name.endsWith(RE)) {
            return name.substring(0, name.length() - RE.length()) + IM;
        }
        if (name.endsWith(IM)) {
            return name.substring(0, name.length() - IM.length()) + RE;
        }
        return null;
    }
}
