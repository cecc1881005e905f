package dev.gradcheck.junit;

import dev.gradcheck.report.SafeText;
import dev.gradcheck.spec.LoadedSpec;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Set;
import org.junit.platform.engine.TestTag;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.support.descriptor.AbstractTestDescriptor;
import org.junit.platform.engine.support.descriptor.FilePosition;
import org.junit.platform.engine.support.descriptor.FileSource;

/**
 * One spec document: a test named by its {@code name}, its source the file at the document's first line (an IDE
 * opens it there), its {@code tags:} its JUnit tags (so Surefire's {@code -Dgroups}, Gradle's
 * {@code includeTags} and an IDE's tag filter take specs as they take test methods).
 *
 * <p>Any string a spec may hold survives: the display name escapes what a terminal, an IDE tree or Surefire's XML
 * could not show ({@link SafeText#forTerminal}), and ids are structured so that no two specs of a file share one.
 */
final class SpecTestDescriptor extends AbstractTestDescriptor {

    /** The id segment of a spec by its name: the first (usually the only) spec of that name in its file. */
    static final String SEGMENT = "spec";
    /**
     * The id segment of a spec its name cannot identify, by its first line: a later spec of a name already taken in
     * its file, or a blank name (which JUnit refuses as an id's value). A segment type of its own, so that no name
     * (not even {@code a@11}) can make the same id.
     */
    static final String REPEATED_SEGMENT = "spec-at-line";

    private final LoadedSpec spec;

    SpecTestDescriptor(UniqueId id, Path file, LoadedSpec spec) {
        super(id, displayName(spec), FileSource.from(file.toFile(), FilePosition.from(spec.pos().line(),
                spec.pos().col())));
        this.spec = spec;
    }

    /** The spec's id segment within its file; {@code firstOfName}: no earlier spec of the file has its name. */
    static UniqueId.Segment segment(LoadedSpec spec, boolean firstOfName) {
        UniqueId id = firstOfName && !blankToJUnit(spec.name()) ? UniqueId.root(SEGMENT, spec.name())
                : UniqueId.root(REPEATED_SEGMENT, Integer.toString(spec.pos().line()));
        return id.getLastSegment();
    }

    /** The name as shown: nothing a terminal or an XML report cannot hold, never blank (JUnit refuses that). */
    static String displayName(LoadedSpec spec) {
        String shown = SafeText.forTerminal(spec.name());
        return shown == null || blankToJUnit(shown) ? "(unnamed spec at line " + spec.pos().line() + ")" : shown;
    }

    /** JUnit's blank: nothing left once trimmed of every character up to U+0020 (controls too), or whitespace. */
    private static boolean blankToJUnit(String text) {
        return text.trim().isEmpty() || text.isBlank();
    }

    LoadedSpec spec() {
        return spec;
    }

    /** The spec's place, as results name it ({@code file:line:col}). */
    String location() {
        return spec.pos().toString();
    }

    /** The spec's tags that JUnit can hold as tags (no blanks, commas, parentheses, '&', '|' or '!'). */
    @Override
    public Set<TestTag> getTags() {
        Set<TestTag> tags = new LinkedHashSet<>();
        spec.tags().stream().filter(TestTag::isValid).map(TestTag::create).forEach(tags::add);
        return tags;
    }

    @Override
    public Type getType() {
        return Type.TEST;
    }
}
