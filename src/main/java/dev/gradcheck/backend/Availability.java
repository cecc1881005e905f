package dev.gradcheck.backend;

import java.util.Map;

/**
 * Whether checks can run on an engine here, decided before a worker is started for it.
 *
 * @param usable      whether a worker on the engine should be started
 * @param message     why not (every check skipped for it shows this), or what will be used; null when there is
 *                    nothing worth saying (the CPU is always there)
 * @param environment what to add to the engine's worker environment so that it uses what was probed (the CUDA
 *                    device); empty when the inherited environment already chose
 */
public record Availability(boolean usable, String message, Map<String, String> environment) {

    public Availability {
        environment = Map.copyOf(environment);
    }

    public Availability(boolean usable, String message) {
        this(usable, message, Map.of());
    }

    /** Usable, with nothing to say. */
    public static final Availability ALWAYS = new Availability(true, null);
}
