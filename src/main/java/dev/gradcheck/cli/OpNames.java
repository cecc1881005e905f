package dev.gradcheck.cli;

import dev.gradcheck.op.catalog.OpCatalog;
import java.util.Iterator;
import java.util.TreeSet;

/**
 * The ops a spec can name, as completion candidates of {@code list-ops GLOB} and {@code new OP} (the completion
 * script and the shell's Tab). Read from the op catalog when first iterated, not when the command is built.
 */
final class OpNames implements Iterable<String> {

    @Override
    public Iterator<String> iterator() {
        return new TreeSet<>(OpCatalog.nd4j().checkableNames()).iterator();
    }
}
