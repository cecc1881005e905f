package dev.gradcheck.cli.options;

import dev.gradcheck.backend.WorkerOptions;
import dev.gradcheck.op.plugin.PluginSet;
import dev.gradcheck.spec.MemoryBudget;
import picocli.CommandLine.Option;

/** {@code --max-memory SIZE}: one limit, declared once and read the same way by {@code check} and {@code validate}. */
public final class MaxMemoryOption {

    @Option(names = "--max-memory", paramLabel = "SIZE", converter = ByteSize.Converter.class,
            description = "Refuse (as INVALID, before allocating) a spec whose inputs, op or graph node outputs, or"
                    + " Jacobians would need more than SIZE (bytes, or with a unit: KiB, MiB, GiB, TiB, also written"
                    + " k, m, g, t; e.g. 2GiB); default: half the checking JVM's heap.")
    public Long bytes;

    /** The budget in this JVM: the limit given, else half its heap. */
    public MemoryBudget budget() {
        return MemoryBudget.orDefault(bytes);
    }

    /** Worker options carrying the limit (the worker's own default otherwise) and the run's plugins. */
    public WorkerOptions on(WorkerOptions workers, PluginSet plugins) {
        WorkerOptions options = bytes == null ? workers : workers.withMaxMemory(bytes);
        return plugins.isEmpty() ? options : options.withPlugins(plugins.paths());
    }
}
