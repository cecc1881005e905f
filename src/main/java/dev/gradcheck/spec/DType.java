package dev.gradcheck.spec;

import java.util.Arrays;
import java.util.Optional;

/** Element types a spec may name. Only floating types can be differentiated. */
public enum DType {
    FLOAT64("float64", true),
    FLOAT32("float32", true),
    FLOAT16("float16", true),
    BFLOAT16("bfloat16", true),
    INT32("int32", false),
    INT64("int64", false),
    BOOL("bool", false);

    private final String specName;
    private final boolean floating;

    DType(String specName, boolean floating) {
        this.specName = specName;
        this.floating = floating;
    }

    public String specName() {
        return specName;
    }

    public boolean isFloating() {
        return floating;
    }

    public static Optional<DType> bySpecName(String name) {
        return Arrays.stream(values()).filter(d -> d.specName.equals(name)).findFirst();
    }

    @Override
    public String toString() {
        return specName;
    }
}
