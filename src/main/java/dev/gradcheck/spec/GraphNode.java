package dev.gradcheck.spec;

import java.util.List;
import java.util.Map;

/**
 * One node of a graph spec: {@code out = op(in...)} with named attributes, optionally clipping the gradient of
 * {@code out}.
 *
 * @param number    1-based position in the {@code graph:} list as written (reports name nodes by it)
 * @param pos       where the node's mapping starts
 * @param op        the operator name, as for a one-op spec
 * @param in        the variables it reads: spec inputs or other nodes' outputs, in the op's argument order
 * @param out       the variable it defines (the op's first output)
 * @param attrs     named op attributes
 * @param errorClip clip on the gradient of {@code out}, or null
 */
public record GraphNode(int number, SourcePos pos, Located<String> op, List<Located<String>> in,
                        Located<String> out, Map<String, Located<Object>> attrs, ErrorClip errorClip) {

    /** "node 3 (cumsum, out=h2)", the name reports use. */
    public String describe() {
        return "node " + number + " (" + op.value() + ", out=" + out.value() + ")";
    }
}
