package dev.gradcheck.junit;

import dev.gradcheck.report.SafeText;
import java.nio.file.Path;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.support.descriptor.AbstractTestDescriptor;
import org.junit.platform.engine.support.descriptor.FileSource;

/** One spec file: a container whose tests are its specs. */
final class SpecFileDescriptor extends AbstractTestDescriptor {

    static final String SEGMENT = "file";

    SpecFileDescriptor(UniqueId id, Path file, String displayName) {
        super(id, SafeText.forTerminal(displayName), FileSource.from(file.toFile()));
    }

    @Override
    public Type getType() {
        return Type.CONTAINER;
    }
}
