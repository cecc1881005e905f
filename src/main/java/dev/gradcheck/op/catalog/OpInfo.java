package dev.gradcheck.op.catalog;

import java.util.List;

/**
 * What {@code list-ops} knows about one operator.
 *
 * @param name        the name a spec uses
 * @param source      where it comes from ("nd4j")
 * @param javaClass   the ND4J class that builds it, or null when only the native registry has it
 * @param bpKernel    whether the native registry has a {@code <name>_bp} backward kernel
 * @param args        named arguments from ND4J's op descriptor (empty when it has none)
 */
public record OpInfo(String name, String source, String javaClass, boolean bpKernel, List<ArgInfo> args) {

    /** A spec can name it: gradcheck builds ops through their SameDiff class. */
    public boolean checkable() {
        return javaClass != null;
    }
}
