package dev.gradcheck.cli;

import java.util.List;
import picocli.CommandLine;

/** {@code --backend}: which engines run every spec, overriding the specs' own {@code backends:}. */
enum BackendChoice {
    CPU(List.of("cpu")),
    CUDA(List.of("cuda")),
    ALL(List.of("cpu", "cuda"));

    private final List<String> backends;

    BackendChoice(List<String> backends) {
        this.backends = backends;
    }

    List<String> backends() {
        return backends;
    }

    static final class Converter implements CommandLine.ITypeConverter<BackendChoice> {
        @Override
        public BackendChoice convert(String value) {
            for (BackendChoice c : values()) {
                if (c.name().equalsIgnoreCase(value)) {
                    return c;
                }
            }
            throw new CommandLine.TypeConversionException("unknown backend '" + value + "'; valid: cpu, cuda, all");
        }
    }
}
