package dev.gradcheck.check;

import dev.gradcheck.spec.InvalidSpecException;
import dev.gradcheck.spec.Located;
import dev.gradcheck.spec.OpSpec;
import dev.gradcheck.spec.SpecError;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * The outputs a check compares: those the spec names (by index or name), or every floating output. Which outputs
 * exist is known only once the op is built and run, so a wrong name is a spec error found here, with its position.
 */
public final class OutputSelection {

    private OutputSelection() {}

    /**
     * @param names the built function's output names
     * @param y     its outputs at the drawn inputs
     */
    public static List<String> select(OpSpec spec, List<String> names, Map<String, INDArray> y) throws InvalidSpecException {
        if (spec.outputs().isEmpty()) {
            List<String> floating = names.stream().filter(n -> y.get(n).dataType().isFPType()).toList();
            if (floating.isEmpty()) {
                throw new InvalidSpecException(spec.op().pos(), spec.op().value() + " has no floating output to check");
            }
            return floating;
        }
        List<String> chosen = new ArrayList<>();
        List<SpecError> errors = new ArrayList<>();
        for (Located<String> o : spec.outputs()) {
            String name = o.value();
            if (!names.contains(name)) {
                errors.add(new SpecError(o.pos(), "output '" + name + "' does not exist: " + spec.op().value()
                        + " has " + names.size() + " output" + (names.size() == 1 ? "" : "s") + " ("
                        + String.join(", ", names) + ")"));
            } else if (!y.get(name).dataType().isFPType()) {
                errors.add(new SpecError(o.pos(), "output '" + name + "' is " + y.get(name).dataType()
                        + " and cannot be differentiated"));
            } else if (!chosen.contains(name)) {
                chosen.add(name);
            }
        }
        if (!errors.isEmpty()) {
            throw new InvalidSpecException(errors);
        }
        return chosen;
    }
}
