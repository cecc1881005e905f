package dev.gradcheck.op;

import dev.gradcheck.spec.DType;
import org.nd4j.linalg.api.buffer.DataType;

/** The one place spec dtypes meet ND4J's. */
public final class Nd4jTypes {

    private Nd4jTypes() {}

    public static DataType of(DType d) {
        return switch (d) {
            case FLOAT64 -> DataType.DOUBLE;
            case FLOAT32 -> DataType.FLOAT;
            case FLOAT16 -> DataType.HALF;
            case BFLOAT16 -> DataType.BFLOAT16;
            case INT32 -> DataType.INT;
            case INT64 -> DataType.LONG;
            case BOOL -> DataType.BOOL;
        };
    }

    /** The spec dtype of an ND4J array type; empty for types a spec cannot name. */
    public static java.util.Optional<DType> toSpec(DataType t) {
        return java.util.Arrays.stream(DType.values()).filter(d -> of(d) == t).findFirst();
    }

    /** The spec dtype of an ND4J array type, for arrays handed in through the library API. */
    public static DType specType(DataType d) {
        return toSpec(d).orElseThrow(() -> new IllegalArgumentException("gradcheck cannot take " + d
                + " arrays (it takes DOUBLE, FLOAT, HALF, BFLOAT16, INT, LONG and BOOL)"));
    }
}
