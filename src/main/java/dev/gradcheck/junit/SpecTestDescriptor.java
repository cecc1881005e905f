package dev.gradcheck.junit;

import dev.gradcheck.spec.LoadedSpec;
import java.nio.file.Path;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.support.descriptor.AbstractTestDescriptor;
import org.junit.platform.engine.support.descriptor.FilePosition;
import org.junit.platform.engine.support.descriptor.FileSource;

/**
 * One spec document: a test named by its {@code name}, its source the file at the document's first line (an IDE
 * opens it there).
 */
final class SpecTestDescriptor extends AbstractTestDescriptor {

    static final String SEGMENT = "spec";

    private final LoadedSpec spec;

    SpecTestDescriptor(UniqueId id, Path file, LoadedSpec spec) {
        super(id, spec.name(), FileSource.from(file.toFile(), FilePosition.from(spec.pos().line(),
                spec.pos().col())));
        this.spec = spec;
    }

    LoadedSpec spec() {
        return spec;
    }

    /** The spec's place, as results name it ({@code file:line:col}). */
    String location() {
        return spec.pos().toString();
    }

    @Override
    public Type getType() {
        return Type.TEST;
    }
}
