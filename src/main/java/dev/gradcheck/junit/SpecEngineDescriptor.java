package dev.gradcheck.junit;

import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.support.descriptor.EngineDescriptor;

/**
 * The engine's root, with the settings discovery read (they chose which specs became tests; execution runs them
 * under the same), or none when a setting could not be used (then the root's one child is the test saying why).
 */
final class SpecEngineDescriptor extends EngineDescriptor {

    private final EngineSettings settings;

    SpecEngineDescriptor(UniqueId id, EngineSettings settings) {
        super(id, GradcheckTestEngine.ID);
        this.settings = settings;
    }

    /** The run's settings; {@link EngineSettings#NONE} when none could be read. */
    EngineSettings settings() {
        return settings == null ? EngineSettings.NONE : settings;
    }
}
