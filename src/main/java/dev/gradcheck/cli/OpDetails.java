package dev.gradcheck.cli;

import dev.gradcheck.op.catalog.ArgInfo;
import dev.gradcheck.op.catalog.OpInfo;
import java.io.PrintWriter;
import java.util.List;

/**
 * {@code gradcheck list-ops OP}: one op in full, as its spec needs it: the inputs in ND4J's order (which a spec's
 * {@code inputs:} follows), the attributes by kind and position, what ND4J's descriptors do not say (ranks,
 * defaults), and the command that writes a spec to start from.
 */
final class OpDetails {

    private OpDetails() {}

    static void write(OpInfo op, PrintWriter out) {
        out.println(op.name() + (op.javaClass() == null ? "" : ": " + op.javaClass())
                + (op.source().equals("nd4j") ? "" : " (" + op.source() + ")"));
        out.println("  a spec can name it: " + (op.checkable() ? "yes" : "no (no SameDiff class to build it)")
                + "; native backward kernel (" + op.name() + "_bp): " + (op.bpKernel() ? "yes" : "no"));
        out.println();
        List<String> inputs = SpecTemplate.inputNames(op);
        boolean described = op.args().stream().anyMatch(a -> a.kind() == ArgInfo.Kind.INPUT);
        out.println("inputs: " + (described ? inputs.size() + ", in ND4J's order (a spec's inputs: follows it, under"
                + " any names; later ones may be optional)" : "none described by ND4J (one input is usual)"));
        for (int i = 0; i < inputs.size() && described; i++) {
            out.printf("  %d  %s%s%n", i, inputs.get(i), SpecTemplate.integerInput(inputs.get(i))
                    ? "   (by its name an integer input: an axis, indices or segment ids)" : "");
        }
        out.println("  ranks and shapes: ND4J's descriptors give none; `gradcheck new " + op.name() + "` tries shapes"
                + " until ND4J accepts them");
        out.println();
        List<ArgInfo> attrs = op.args().stream().filter(a -> a.kind() != ArgInfo.Kind.INPUT).toList();
        out.println("attributes (attrs:): " + (attrs.isEmpty() ? "none" : attrs.size() + ", by kind, each at its"
                + " position among its kind"));
        for (ArgInfo.Kind kind : ArgInfo.Kind.values()) {
            List<String> ofKind = attrs.stream().filter(a -> a.kind() == kind)
                    .map(a -> a.name() + " (" + a.index() + ")").toList();
            if (!ofKind.isEmpty() && kind != ArgInfo.Kind.INPUT) {
                out.printf("  %-6s %s%n", kind.label(), String.join(", ", ofKind));
            }
        }
        if (!attrs.isEmpty()) {
            out.println("  defaults: ND4J's descriptors carry none. A kind left out entirely takes the kernel's own;");
            out.println("  a later argument needs every earlier one of its kind (docs/ops.md)");
        }
        out.println();
        out.println("a spec to start from: gradcheck new " + op.name());
    }
}
