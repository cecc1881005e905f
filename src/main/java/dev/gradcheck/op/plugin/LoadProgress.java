package dev.gradcheck.op.plugin;

/**
 * What a plugin load is doing now: the plugin a time limit or an exit interrupts, so that its usage error can name
 * it. Written by the loading thread, read by the one that waits for it and by a shutdown hook, hence volatile.
 */
final class LoadProgress {

    private volatile String now = "plugin loading";

    void at(String what) {
        now = what;
    }

    /** "plugin com.example.Op (from /work/ops.jar)", or "the plugins in /work/ops.jar" while it is searched. */
    String now() {
        return now;
    }
}
